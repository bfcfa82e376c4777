import { readSessionHistory, type Engine, type SessionHandle } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import type { InteractiveArgs } from "../args.js";
import type { SlashCommand } from "./complete.js";
import { foldHistory } from "./history-fold.js";
import { OpenError } from "./open-error.js";
import type { ViewStore } from "./store.js";
import { catalogArrived } from "./ui-commands.js";
import { add, type View } from "./view.js";

/** Opens (or creates) the session; every event goes to `onEvent`, from the first. */
export async function openSession(
  engine: Engine,
  args: InteractiveArgs,
  root: string,
  id: string | undefined,
  onEvent: (envelope: EventEnvelope) => void,
): Promise<SessionHandle> {
  const options = {
    onEvent,
    ...(args.mode ? { mode: args.mode } : {}),
    ...(args.model ? { model: args.model } : {}),
    ...(args.maxTurns ? { maxTurns: args.maxTurns } : {}),
  };
  if (id === undefined) return engine.createSession(root, options);
  try {
    return await engine.openSession(id, options);
  } catch (error) {
    throw new OpenError(1, `cannot resume ${id}: ${(error as Error).message}`);
  }
}

/** What the resumed line says of a stored session: its title and message count (the picker's). */
export interface Resumed {
  readonly title?: string | null | undefined;
  readonly messageCount: number;
}

/**
 * The view with a resumed session's stored events folded in (engine's `readSessionHistory`):
 * prompts, answers, tool calls with their results, checks and turn ends, after what is
 * already on screen, then one line naming it. Flags given now win over the stored mode and model.
 */
export function withHistory(
  view: View,
  events: readonly EventEnvelope[],
  resumed: Resumed,
  args: InteractiveArgs,
  root: string,
): View {
  const folded = foldHistory(view, events, root);
  const title = resumed.title ? `: ${resumed.title}` : "";
  const n = resumed.messageCount;
  return {
    ...add(folded, {
      kind: "info",
      text: `── resumed${title} (${n} message${n === 1 ? "" : "s"})`,
    }),
    mode: args.mode ?? folded.mode,
    model: args.model ?? folded.model,
  };
}

/** A resumed session's stored events; empty for an unreadable log (the session still opens). */
export async function historyOf(dataDir: string, id: string): Promise<EventEnvelope[]> {
  return readSessionHistory(dataDir, id).then(
    (h) => h.events,
    () => [],
  );
}

/**
 * Keeps `view.commands` equal to the session's catalog (`SessionHandle.commands()`): read at
 * once, again when its MCP servers have settled (their prompts join), and on each call of
 * the returned refresh. A later read never overwrites a newer one. Never throws.
 */
export function watchCommands(session: SessionHandle, store: ViewStore): () => void {
  let asked = 0;
  const refresh = () => {
    const ask = ++asked;
    void session
      .commands()
      .then((list) => {
        if (ask !== asked) return;
        const commands: SlashCommand[] = list.map((c) => ({
          name: c.name,
          description: c.description,
          ...(c.argumentHint ? { argumentHint: c.argumentHint } : {}),
        }));
        store.change((view) => catalogArrived(view, commands));
      })
      .catch(() => {});
  };
  refresh();
  void session.mcp.settled().then(refresh, () => {});
  return refresh;
}
