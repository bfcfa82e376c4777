import { isAbsolute, relative, sep } from "node:path";
import type { RepoMapFocus } from "@z-engine/context";
import type { Message } from "@z-engine/protocol";

/** Most prompt text the focus keeps (the newest). */
const MAX_FOCUS_TEXT = 20_000;
const PATH_FIELDS = ["file_path", "path", "notebook_path"] as const;

function projectRelative(root: string, path: string): string | null {
  const rel = isAbsolute(path) ? relative(root, path) : path;
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return null;
  return rel.split(sep).join("/").replace(/^\.\//, "");
}

/**
 * What the session is about, from its transcript: the files its tool calls read or wrote
 * (their `file_path`, `path` or `notebook_path` inputs, inside the project) and the text of
 * its user messages (the newest {@link MAX_FOCUS_TEXT} characters). Never throws.
 */
export function focusFrom(root: string, messages: readonly Message[]): Required<RepoMapFocus> {
  const files = new Set<string>();
  const texts: string[] = [];
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "text" && message.role === "user") texts.push(block.text);
      if (block.type !== "toolUse" || typeof block.input !== "object" || block.input === null)
        continue;
      const input = block.input as Record<string, unknown>;
      for (const field of PATH_FIELDS) {
        const value = input[field];
        const rel = typeof value === "string" ? projectRelative(root, value) : null;
        if (rel) files.add(rel);
      }
    }
  }
  return { files: [...files].sort(), text: texts.join("\n").slice(-MAX_FOCUS_TEXT) };
}
