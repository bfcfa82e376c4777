import { basename, dirname } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { readSessionHistory, type SessionHandle } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import { UpdateTranslator } from "./updates.js";

/**
 * The events of a stored conversation as it stands after its rewinds: a rewind of the
 * conversation drops everything from the turn of the message it went back to. Pure.
 */
export function afterRewinds(events: readonly EventEnvelope[]): EventEnvelope[] {
  const kept: EventEnvelope[] = [];
  for (const envelope of events) {
    const e = envelope.event;
    if (e.type !== "rewound" || e.restore === "code") {
      kept.push(envelope);
      continue;
    }
    const from = kept.findIndex(
      (k) => k.event.type === "turnStarted" && k.event.userMessageId === e.messageId,
    );
    if (from >= 0) kept.splice(from);
  }
  return kept;
}

/** The data folder of a file store's log (`<data>/sessions/<id>/log.jsonl`), if it is one. */
function dataDirOf(handle: SessionHandle): string | undefined {
  const folder = dirname(handle.logPath);
  if (basename(handle.logPath) !== "log.jsonl" || basename(folder) !== handle.id) return undefined;
  const sessions = dirname(folder);
  return basename(sessions) === "sessions" ? dirname(sessions) : undefined;
}

/**
 * A stored session told as the updates a client would have seen (for `session/load`): the
 * user's prompts, the answers and thoughts, every tool call with its outcome, the plan, the
 * mode and the title, after rewinds. A session kept elsewhere than the file store, or a log
 * that cannot be read, replays nothing (the session still opens). Never rejects.
 */
export async function replayUpdates(handle: SessionHandle): Promise<SessionUpdate[]> {
  const dataDir = dataDirOf(handle);
  if (!dataDir) return [];
  const history = await readSessionHistory(dataDir, handle.id).catch(() => undefined);
  if (!history) return [];
  const translator = new UpdateTranslator({ replay: true });
  const updates: SessionUpdate[] = [];
  for (const envelope of afterRewinds(history.events)) {
    updates.push(...translator.updates(envelope));
    if (envelope.event.type === "turnFinished")
      updates.push(...translator.closeOpen("Interrupted."));
  }
  return updates;
}
