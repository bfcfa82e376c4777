import { mapTokens, REPO_MAP_HEADER, reminderBlock } from "@z-engine/context";
import type { Message } from "@z-engine/protocol";

/** How a map reminder starts: the reminder tag, then the map's header line. */
const START = `${reminderBlock("x").text.split("x")[0]}${REPO_MAP_HEADER}`;

/** The size of a map already in a conversation. */
export interface VisibleMap {
  readonly tokens: number;
  readonly files: number;
  readonly definitions: number;
}

/**
 * The newest repo map reminder in the user messages of `messages` (a resumed session's log
 * may hold one), measured as the map renders it: `path:` lines are files, indented
 * `LINE: signature` lines are definitions. Null when there is none. Never throws.
 */
export function visibleMap(messages: readonly Message[]): VisibleMap | null {
  for (let m = messages.length - 1; m >= 0; m--) {
    const message = messages[m] as Message;
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (block.type !== "text" || !block.text.startsWith(START)) continue;
      const lines = block.text.split("\n");
      const map = lines.slice(1, -1).join("\n");
      return {
        tokens: mapTokens(map),
        files: lines.filter((l) => /^\S.*:$/.test(l)).length,
        definitions: lines.filter((l) => /^ +\d+: /.test(l)).length,
      };
    }
  }
  return null;
}
