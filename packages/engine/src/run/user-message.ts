import { stat } from "node:fs/promises";
import { filesChangedReminder } from "@z-engine/context";
import { type ContentBlock, type Message, newMessageId } from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";
import type { AgentRun } from "../core/agent-context.js";
import type { TurnState } from "../core/turn-state.js";

/** Queues the "changed outside the agent" reminder for read files whose size or time moved. */
export async function queueChangedFiles(run: Pick<AgentRun, "files" | "reminders">): Promise<void> {
  const changed = await run.files.changedSinceRead();
  if (changed.length === 0) return;
  const stamps = await Promise.all(
    changed.map(async (path) => {
      const s = await stat(path).catch(() => null);
      return s ? `${path}@${s.size}:${s.mtimeMs}` : `${path}@gone`;
    }),
  );
  run.reminders.add(filesChangedReminder(`changed:${stamps.join("|")}`, changed));
}

/** Takes the steering messages waiting for the next round, as text blocks. */
export function drainSteering(core: Pick<SessionCore, "steering">): ContentBlock[] {
  return core.steering.splice(0).map((text) => ({ type: "text", text }));
}

/**
 * Records the user message that continues a run: `blocks` (tool results first), then the
 * steering that arrived (the main agent's only), then every queued reminder of the agent,
 * written into the recorded message (design.md §3) so replay and the cached prefix see the
 * same bytes.
 */
export async function appendUserMessage(
  core: Pick<SessionCore, "steering">,
  run: Pick<AgentRun, "files" | "reminders" | "depth" | "transcript">,
  turn: TurnState,
  blocks: readonly ContentBlock[],
): Promise<Message> {
  await queueChangedFiles(run);
  const content = [...blocks, ...(run.depth === 0 ? drainSteering(core) : [])];
  const message = run.reminders.appendTo({ id: newMessageId(), role: "user", content });
  await run.transcript.record("message", { message, turnId: turn.turnId });
  return message;
}
