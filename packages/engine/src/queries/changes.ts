import { createHash } from "node:crypto";
import type { CheckpointInfo } from "@z-engine/protocol";
import type { SessionHandle } from "../session/handle.js";
import { readStoredFile, type StoredFile } from "./checkpoint-files.js";
import { type DiffHunk, diffTexts } from "./line-diff.js";
import { type ProjectFile, readProjectFile, textOf } from "./project-file.js";
import { targetOf } from "./registry.js";

/** How a file differs from the checkpoint. */
export type FileChangeStatus = "added" | "modified" | "deleted" | "typeChanged";

/** One file the session changed since a checkpoint, as the Changes screen reviews it. */
export interface ChangedFile {
  /** Project-relative, `/`-separated. */
  readonly path: string;
  readonly status: FileChangeStatus;
  /** Lines added and removed (0 for a binary file). */
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly DiffHunk[];
  /** Why there is no line diff: a binary file, one too large, a link or not a file. */
  readonly noDiff?: "binary" | "tooLarge" | "link";
  /** A digest of the file as it is now (empty between two checkpoints): a revert names it so that a file changed since is left alone. */
  readonly currentSha: string;
}

/** What changed since a checkpoint. */
export interface SessionChanges {
  /** The checkpoint compared against (null when the session has none yet). */
  readonly checkpoint: CheckpointInfo | null;
  /** Every checkpoint of the session, oldest first (the ones a host may compare against). */
  readonly checkpoints: readonly CheckpointInfo[];
  readonly files: readonly ChangedFile[];
  /** Why nothing can be compared (checkpoints off), when so. */
  readonly note?: string;
}

/** Files listed at most: past this the review says how many were left out. */
export const MAX_CHANGED_FILES = 300;
const MAX_DIFF_BYTES = 1024 * 1024;

/** A side of a comparison as text, or why it has none. */
export type Side =
  | { readonly kind: "absent" }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "opaque"; readonly why: "binary" | "tooLarge" | "link" };

/** The stored side of a file. */
export function storedSide(file: StoredFile | null): Side {
  if (!file) return { kind: "absent" };
  if (file.mode === "120000") return { kind: "opaque", why: "link" };
  if (file.bytes.length > MAX_DIFF_BYTES) return { kind: "opaque", why: "tooLarge" };
  const text = textOf(file.bytes);
  return text === null ? { kind: "opaque", why: "binary" } : { kind: "text", text };
}

/** The current side of a file. */
export function currentSide(file: ProjectFile): Side {
  switch (file.kind) {
    case "absent":
      return file;
    case "link":
      return { kind: "opaque", why: "link" };
    case "file": {
      if (file.bytes.length > MAX_DIFF_BYTES) return { kind: "opaque", why: "tooLarge" };
      const text = textOf(file.bytes);
      return text === null ? { kind: "opaque", why: "binary" } : { kind: "text", text };
    }
    default:
      return { kind: "opaque", why: "tooLarge" };
  }
}

/** A digest of a file as it is now (its bytes, a link's target, or its absence). */
export function currentSha(file: ProjectFile): string {
  const hash = createHash("sha256");
  if (file.kind === "file") hash.update("file\0").update(file.bytes);
  else if (file.kind === "link") hash.update(`link\0${file.target}`);
  else hash.update(file.kind);
  return hash.digest("hex").slice(0, 32);
}

/** The checkpoint of `checkpointId`, else the session's first; undefined when it has none. */
export function chooseCheckpoint(
  checkpoints: readonly CheckpointInfo[],
  checkpointId: string | undefined,
): CheckpointInfo | undefined {
  if (checkpointId === undefined) return checkpoints[0];
  return checkpoints.find((c) => c.id === checkpointId);
}

function compare(path: string, status: FileChangeStatus, old: Side, now: Side, sha: string) {
  if (old.kind === "opaque" || now.kind === "opaque") {
    const why = old.kind === "opaque" ? old.why : now.kind === "opaque" ? now.why : "binary";
    return { path, status, added: 0, removed: 0, hunks: [], noDiff: why, currentSha: sha };
  }
  const diff = diffTexts(old.kind === "text" ? old.text : "", now.kind === "text" ? now.text : "");
  return { path, status, ...diff, currentSha: sha };
}

/**
 * Every file that differs between a checkpoint (default: the session's first) and the
 * project now, with line diffs and counts, sorted by path; at most {@link MAX_CHANGED_FILES}.
 * Read-only: nothing in the project or the session changes. Resolves with a `note` when the
 * session takes no checkpoints; rejects with the reason when an unknown checkpoint is named
 * or git fails.
 */
export async function sessionChanges(
  handle: SessionHandle,
  options: {
    readonly checkpointId?: string;
    /** Compare with this later checkpoint instead of the files now (what one turn changed). */
    readonly untilCheckpointId?: string;
  } = {},
): Promise<SessionChanges> {
  const { session, ctx } = targetOf(handle);
  const checkpoints = session.log.snapshot().state.checkpoints;
  const store = session.checkpoints;
  if (!store) return { checkpoint: null, checkpoints, files: [], note: "checkpoints are off" };
  const checkpoint = chooseCheckpoint(checkpoints, options.checkpointId);
  if (!checkpoint) {
    if (options.checkpointId !== undefined)
      throw new Error(`no checkpoint ${options.checkpointId} in this session`);
    return { checkpoint: null, checkpoints, files: [] };
  }
  const until = options.untilCheckpointId
    ? checkpoints.find((c) => c.id === options.untilCheckpointId)
    : undefined;
  if (options.untilCheckpointId && !until)
    throw new Error(`no checkpoint ${options.untilCheckpointId} in this session`);
  const changes = await store.diff(checkpoint.commit, until ? until.commit : "worktree");
  if ("disabled" in changes) return { checkpoint, checkpoints, files: [], note: changes.disabled };
  const read = (commit: string, path: string) =>
    readStoredFile(store.gitDir, commit, path, ctx.childEnv);
  const newSide = async (path: string): Promise<{ side: Side; sha: string }> => {
    if (until) return { side: storedSide(await read(until.commit, path)), sha: "" };
    const now = await readProjectFile(session.projectRoot, path);
    return { side: currentSide(now), sha: currentSha(now) };
  };
  const files: ChangedFile[] = [];
  for (const change of changes.slice(0, MAX_CHANGED_FILES)) {
    const [stored, after] = await Promise.all([
      read(checkpoint.commit, change.path),
      newSide(change.path),
    ]);
    files.push(compare(change.path, change.status, storedSide(stored), after.side, after.sha));
  }
  const left = changes.length - files.length;
  return {
    checkpoint,
    checkpoints,
    files,
    ...(left > 0 ? { note: `${left} more changed files are not listed` } : {}),
  };
}
