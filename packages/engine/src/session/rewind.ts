import type { MessageId, RewindRestore } from "@z-engine/protocol";
import type { EngineSession } from "./session.js";

/**
 * Rewinds an idle session to before a user message (design.md §3): code restores the first
 * checkpoint taken at or after that message (snapshotting the current state first; when no
 * tool ran since, the files already are as they were); conversation appends a rewind record,
 * so the working set is rebuilt without the later messages, and resets read tracking.
 */
export async function rewindSession(
  session: EngineSession,
  messageId: MessageId,
  restore: RewindRestore,
): Promise<void> {
  const snapshot = session.log.snapshot();
  const order = snapshot.transcript.flatMap((r) => (r.kind === "message" ? [r.message] : []));
  const index = order.findIndex((m) => m.id === messageId && m.role === "user");
  if (index < 0) {
    await session.journal.notice(
      "warning",
      "rewind.unknownMessage",
      `no user message ${messageId} in this session's conversation`,
    );
    return;
  }
  let restoredPaths: string[] = [];
  let unstorable: string[] = [];
  if (restore !== "conversation") {
    const position = new Map(order.map((m, i) => [m.id as string, i]));
    const checkpoint = snapshot.state.checkpoints.find(
      (c) => (position.get(c.messageId) ?? -1) >= index,
    );
    if (checkpoint && session.checkpoints) {
      const result = await session.checkpoints.restore(checkpoint.commit);
      if ("disabled" in result) {
        await session.journal.notice(
          "warning",
          "rewind.checkpointsOff",
          `files were not restored: ${result.disabled}`,
        );
      } else {
        restoredPaths = [...result.restored, ...result.removed];
        unstorable = [...result.unstorable];
      }
    }
  }
  if (restore !== "code") session.files.reset();
  await session.journal.record(
    "rewind",
    { messageId, restore, restoredPaths, unstorable },
    { type: "rewound", messageId, restore, restoredPaths, unstorable },
  );
  if (unstorable.length > 0) {
    await session.journal.notice(
      "warning",
      "rewind.unstorable",
      `these files could not be stored in the checkpoint and were left as they are: ${unstorable.join(", ")}`,
    );
  }
}
