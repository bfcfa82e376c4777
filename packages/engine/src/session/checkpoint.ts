import { type CheckpointInfo, newCheckpointId } from "@z-engine/protocol";
import type { TurnState } from "../core/turn-state.js";
import type { SessionCore } from "../core/session-core.js";

/** What taking a checkpoint uses of the session. */
type CheckpointTarget = Pick<SessionCore, "checkpoints" | "journal" | "clock">;

type SnapshotOutcome =
  | Awaited<ReturnType<NonNullable<SessionCore["checkpoints"]>["snapshot"]>>
  | { readonly failed: string };

/**
 * A session's turn checkpoints (design.md §3, issue 18). The snapshot starts with the turn's
 * git work, once its first request went out, so it runs while the model answers; the checkpoint is recorded (and
 * announced) only when the turn's first tool call is about to run, after the snapshot is
 * done. A turn without tool calls records none. Close waits for snapshots still running, so
 * no git process outlives the session.
 */
export class TurnCheckpoints {
  private disabled = false;
  private readonly pending = new Set<Promise<unknown>>();

  /**
   * Starts the snapshot of `turn` (a user turn) once its git work starts, and returns the
   * function that records it; undefined when the session takes no checkpoints. The recorder
   * starts the git work if it has not started, and never rejects for git trouble (a failure
   * is a warning notice); call it at most once.
   */
  begin(session: CheckpointTarget, turn: TurnState): (() => Promise<void>) | undefined {
    const store = session.checkpoints;
    if (!store || this.disabled || !turn.userMessageId) return undefined;
    const snapshot = turn.gitWork.started.then(() => {
      const taken: Promise<SnapshotOutcome> = store
        .snapshot(`before turn ${turn.turnId}`)
        .catch((error: unknown) => ({ failed: (error as Error).message }));
      this.pending.add(taken);
      void taken.finally(() => this.pending.delete(taken));
      return taken;
    });
    return async () => {
      turn.gitWork.start();
      await this.record(session, turn, await snapshot);
    };
  }

  /** Resolves when every snapshot that was started has finished (one waiting to start is not waited for). */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  private async record(session: CheckpointTarget, turn: TurnState, snap: SnapshotOutcome) {
    const turnId = turn.turnId;
    if ("failed" in snap) {
      const text = `no checkpoint for this turn: ${snap.failed}`;
      await session.journal.notice("warning", "checkpoint.failed", text, { turnId });
      return;
    }
    if ("disabled" in snap) {
      if (this.disabled) return;
      this.disabled = true;
      const text = `checkpoints are off for this project: ${snap.disabled}`;
      await session.journal.notice("warning", "checkpoint.disabled", text, { turnId });
      return;
    }
    const checkpoint: CheckpointInfo = {
      id: newCheckpointId(),
      turnId,
      messageId: turn.userMessageId as NonNullable<TurnState["userMessageId"]>,
      createdAt: session.clock(),
      commit: snap.commit,
      files: snap.files,
      unstorable: [...snap.unstorable],
    };
    await session.journal.record(
      "checkpoint",
      { checkpoint },
      { type: "checkpointCreated", checkpoint },
      { turnId },
    );
  }
}
