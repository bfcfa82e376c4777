import { stat } from "node:fs/promises";
import { filesChangedReminder } from "@z-engine/context";
import { type ContentBlock, type Message, newMessageId } from "@z-engine/protocol";
import type { SessionCore } from "../session/core.js";
import type { TurnState } from "./turn-state.js";

/** Queues the "changed outside the agent" reminder for read files whose size or time moved. */
export async function queueChangedFiles(core: SessionCore): Promise<void> {
  const changed = await core.files.changedSinceRead();
  if (changed.length === 0) return;
  const stamps = await Promise.all(
    changed.map(async (path) => {
      const s = await stat(path).catch(() => null);
      return s ? `${path}@${s.size}:${s.mtimeMs}` : `${path}@gone`;
    }),
  );
  core.reminders.add(filesChangedReminder(`changed:${stamps.join("|")}`, changed));
}

/** Takes the steering messages waiting for the next round, as text blocks. */
export function drainSteering(core: SessionCore): ContentBlock[] {
  return core.steering.splice(0).map((text) => ({ type: "text", text }));
}

/**
 * Records the user message that continues a turn: `blocks` (tool results first), then the
 * steering that arrived, then every queued reminder, written into the recorded message
 * (design.md §3) so replay and the cached prefix see the same bytes.
 */
export async function appendUserMessage(
  core: SessionCore,
  turn: TurnState,
  blocks: readonly ContentBlock[],
): Promise<Message> {
  await queueChangedFiles(core);
  const content = [...blocks, ...drainSteering(core)];
  const message = core.reminders.appendTo({ id: newMessageId(), role: "user", content });
  await core.journal.record("message", { message, turnId: turn.turnId });
  return message;
}
