import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SessionHandle } from "../session/handle.js";
import { chooseCheckpoint, currentSha, currentSide, storedSide } from "./changes.js";
import { readStoredFile } from "./checkpoint-files.js";
import { revertHunks } from "./line-diff.js";
import { isSafeRelativePath, parentInside, readProjectFile } from "./project-file.js";
import { type QueryTarget, targetOf } from "./registry.js";

/** Which change to take back: a file (all of it) or some of its hunks, as the review showed them. */
export interface RevertRequest {
  /** The checkpoint the review compared against (`SessionChanges.checkpoint.id`). */
  readonly checkpointId: string;
  /** Project-relative, `/`-separated. */
  readonly path: string;
  /** Hunk indices (`DiffHunk.index`); absent: the whole file. */
  readonly hunks?: readonly number[];
  /** `ChangedFile.currentSha` as shown: when the file changed since, nothing is written. */
  readonly expectSha?: string;
}

/** What a revert did: the file restored, or why nothing was written. */
export type RevertOutcome =
  | { readonly ok: true; readonly path: string; readonly message: string }
  | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): RevertOutcome => ({ ok: false, reason });

/**
 * Takes one file, or some of its hunks, back to a checkpoint (the snapshot a rewind restores
 * from), while the session is idle: a file created since is removed, a deleted one comes back
 * with its mode, a modified one gets the checkpoint's bytes (or the chosen hunks reversed).
 * The write holds the session's lock on the path, and an info notice (recorded in the log)
 * says what was reverted; the agent's read tracking sees the change, so it reads the file again
 * before an edit. Expected refusals are values (a running turn, an unknown checkpoint, a
 * path outside the project, a file changed since the review, a binary file's hunks, links);
 * rejects only when the file cannot be written or the log refuses the notice.
 */
export async function revertChange(
  handle: SessionHandle,
  request: RevertRequest,
): Promise<RevertOutcome> {
  const target = targetOf(handle);
  const { session } = target;
  if (session.busy) return refuse("a turn is running: revert once it ends");
  if (!isSafeRelativePath(request.path)) return refuse(`${request.path} is not a project path`);
  const store = session.checkpoints;
  if (!store) return refuse("checkpoints are off in this session");
  const checkpoint = chooseCheckpoint(
    session.log.snapshot().state.checkpoints,
    request.checkpointId,
  );
  if (!checkpoint) return refuse(`no checkpoint ${request.checkpointId} in this session`);
  if (!(await parentInside(session.projectRoot, request.path)))
    return refuse(`${request.path} is outside the project once links are followed`);
  const full = join(session.projectRoot, request.path);
  return session.locks.withLock([full], async () => {
    const [stored, now] = await Promise.all([
      readStoredFile(store.gitDir, checkpoint.commit, request.path, target.ctx.childEnv),
      readProjectFile(session.projectRoot, request.path),
    ]);
    if (request.expectSha !== undefined && request.expectSha !== currentSha(now))
      return refuse(`${request.path} changed since the review: look at it again`);
    if (now.kind === "link" || stored?.mode === "120000")
      return refuse("links are brought back by a rewind of the code, not one by one");
    if (now.kind === "other" || now.kind === "tooLarge")
      return refuse(`${request.path} is not a file this screen can revert`);
    let what: string;
    if (request.hunks === undefined) {
      if (!stored) await rm(full, { force: true });
      else {
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, stored.bytes);
        if (now.kind === "absent") await chmod(full, stored.mode === "100755" ? 0o755 : 0o644);
      }
      what = stored ? (now.kind === "absent" ? "restored" : "reverted") : "removed (it was new)";
    } else {
      const old = storedSide(stored);
      const current = currentSide(now);
      if (old.kind === "opaque" || current.kind !== "text")
        return refuse("only a text file can be reverted hunk by hunk");
      const text = revertHunks(old.kind === "text" ? old.text : "", current.text, request.hunks);
      await writeFile(full, text);
      const n = request.hunks.length;
      what = `${n === 1 ? "one hunk" : `${n} hunks`} reverted`;
    }
    const message = `${request.path}: ${what} to the checkpoint before "${promptOf(target, checkpoint.turnId)}"`;
    await session.journal.notice("info", "changes.reverted", message);
    return { ok: true, path: request.path, message };
  });
}

function promptOf(target: QueryTarget, turnId: string): string {
  const turn = target.session.log
    .snapshot()
    .transcript.find((r) => r.kind === "turnStarted" && r.turnId === turnId);
  const prompt = turn?.kind === "turnStarted" ? turn.prompt : "a turn";
  return prompt.length > 60 ? `${prompt.slice(0, 57)}...` : prompt;
}
