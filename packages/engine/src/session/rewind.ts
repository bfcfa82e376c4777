import type { MessageId, RewindRestore } from "@z-engine/protocol";
import type { SessionCore } from "../core/session-core.js";

/** What a rewind reads and resets. */
export type RewindTarget = Pick<
  SessionCore,
  "log" | "checkpoints" | "journal" | "files" | "reminders" | "instructions" | "repoMap"
>;

interface CodeRestore {
  readonly restoredPaths: string[];
  readonly unstorable: string[];
}

/**
 * Restores the files to the first checkpoint taken at or after the user message at `index`
 * (the host snapshots the current state first). No such checkpoint: no tool ran since, the
 * files already are as they were. Resolves to null (after a notice) when the restore failed.
 */
async function restoreCode(
  session: RewindTarget,
  order: readonly { id: string }[],
  index: number,
): Promise<CodeRestore | null> {
  const none: CodeRestore = { restoredPaths: [], unstorable: [] };
  const position = new Map(order.map((m, i) => [m.id, i]));
  const checkpoint = session.log
    .snapshot()
    .state.checkpoints.find((c) => (position.get(c.messageId) ?? -1) >= index);
  if (!checkpoint || !session.checkpoints) return none;
  let result: Awaited<ReturnType<NonNullable<SessionCore["checkpoints"]>["restore"]>>;
  try {
    result = await session.checkpoints.restore(checkpoint.commit);
  } catch (error) {
    await session.journal.notice(
      "error",
      "rewind.failed",
      `the files could not be restored (${(error as Error).message}); the conversation was left as it is`,
    );
    return null;
  }
  if ("disabled" in result) {
    await session.journal.notice(
      "warning",
      "rewind.checkpointsOff",
      `files were not restored: ${result.disabled}`,
    );
    return none;
  }
  return {
    restoredPaths: [...result.restored, ...result.removed],
    unstorable: [...result.unstorable],
  };
}

/**
 * Rewinds an idle session to before a user message (design.md §3): code restores the first
 * checkpoint taken at or after that message (snapshotting the current state first; when no
 * tool ran since, the files already are as they were); conversation appends a rewind record,
 * so the working set is rebuilt without the later messages, and resets read tracking, so
 * files are read again before an edit. Files a snapshot could not store are left alone and
 * named in a notice. An unknown message or a failed restore changes nothing and says why.
 * Rejects only when the log cannot be written.
 */
export async function rewindSession(
  session: RewindTarget,
  messageId: MessageId,
  restore: RewindRestore,
): Promise<void> {
  const order = (await session.log.transcript()).flatMap((r) =>
    r.kind === "message" ? [r.message] : [],
  );
  const index = order.findIndex((m) => m.id === messageId && m.role === "user");
  if (index < 0) {
    await session.journal.notice(
      "warning",
      "rewind.unknownMessage",
      `no user message ${messageId} in this session's conversation`,
    );
    return;
  }
  const code =
    restore === "conversation"
      ? { restoredPaths: [], unstorable: [] }
      : await restoreCode(session, order, index);
  if (!code) return;
  if (restore !== "code") {
    // The later messages leave the context: files must be read again before an edit, and
    // reminders those messages carried may be given again.
    session.files.reset();
    session.reminders.reset();
    session.instructions.reset();
  }
  const { restoredPaths, unstorable } = code;
  await session.journal.record(
    "rewind",
    { messageId, restore, restoredPaths, unstorable },
    { type: "rewound", messageId, restore, restoredPaths, unstorable },
  );
  // A map the dropped messages carried joins the next user message again.
  if (restore !== "code") session.repoMap?.rewound();
  if (unstorable.length > 0) {
    await session.journal.notice(
      "warning",
      "rewind.unstorable",
      `these files could not be stored in the checkpoint and were left as they are: ${unstorable.join(", ")}`,
    );
  }
}
