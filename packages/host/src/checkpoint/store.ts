import { copyFile, rm } from "node:fs/promises";
import { HostError } from "../errors.js";
import { GitTimeLimit } from "../git.js";
import { commitIndex, writeIndexTree } from "./commit.js";
import { type CheckpointChange, compareTrees, readUnstorable, snapshotMessage } from "./compare.js";
import { type UserRepoInfo, buildExcludeText, readUserRepo } from "./exclude.js";
import { commitFirstSnapshot } from "./first-commit.js";
import { listFirstLocally, readUserRepoAndList } from "./first-listing.js";
import { applyRestore, planRestore } from "./restore.js";
import { CHECKPOINT_REF, ShadowRepo } from "./shadow-repo.js";
import { type StageLimits, planStage } from "./stage.js";

/** Options for {@link createCheckpointStore}. */
export interface CheckpointStoreOptions {
  /** The data folder's `checkpoints/`; the shadow repository is `<checkpointsDir>/<project hash>/`. */
  readonly checkpointsDir: string;
  /** The project folder whose files are snapshotted. */
  readonly projectRoot: string;
  /** The environment git runs with (inherited `GIT_*` variables are dropped); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Above this many files checkpoints are off (default 50,000). */
  readonly maxFiles?: number;
  /** Files larger than this are not stored (default 8 MiB). */
  readonly maxFileBytes?: number;
  /**
   * A git call of a snapshot, diff or restore taking longer is killed and the operation
   * rejects (default 2 minutes; git blocks for ever opening a FIFO where it reads an ignore
   * file).
   */
  readonly gitTimeLimitMs?: number;
  /**
   * When it aborts, the git calls in flight are killed and their operations reject: a
   * session that closes does not wait out a git blocked on a FIFO the project swapped in.
   */
  readonly signal?: AbortSignal;
}

/** A stored snapshot. */
export interface Snapshot {
  /** The shadow repository's commit. */
  readonly commit: string;
  /** How many files it holds. */
  readonly files: number;
  /** Project-relative paths it could not store (too large), sorted. */
  readonly unstorable: readonly string[];
}

/** Checkpoints are off for this project (too many files); `disabled` is the notice's text. */
export interface CheckpointsDisabled {
  readonly disabled: string;
}

/** What a restore did. */
export interface RestoreResult {
  /** Files written back (changed or deleted since the snapshot), sorted. */
  readonly restored: readonly string[];
  /** Files created since the snapshot, removed, sorted. */
  readonly removed: readonly string[];
  /** Files left alone because a snapshot could not store them (or they are ignored now). */
  readonly unstorable: readonly string[];
  /** The snapshot of the state just before the restore (restore it to undo). */
  readonly safetySnapshot: Snapshot;
}

/** Snapshots of one project in its shadow repository. */
export interface CheckpointStore {
  /** The shadow repository's folder. */
  readonly gitDir: string;
  /**
   * Snapshots the work tree as a commit chained on one ref. Resolves to `disabled` above the
   * file limit. Operations on one store run one at a time. Rejects with a `HostError` when
   * git fails.
   */
  snapshot(label: string): Promise<Snapshot | CheckpointsDisabled>;
  /**
   * Does ahead what a snapshot does first (reads where the user's repository is and its
   * personal excludes, creates the shadow repository, writes its excludes), so a snapshot
   * taken later starts at listing the files. Never rejects: a failure shows again, as a
   * rejection, at the next snapshot.
   */
  warm(): Promise<void>;
  /**
   * Paths that differ from snapshot `from` to snapshot `to`, or to the work tree now (as a
   * snapshot would see it). Rejects with `checkpointNotFound` for an unknown commit.
   */
  diff(from: string, to: string | "worktree"): Promise<CheckpointChange[] | CheckpointsDisabled>;
  /**
   * Snapshots the current state, then rewrites only the files that differ from `commit`,
   * brings back deleted files and removes files created since; unstorable files are left
   * alone and listed. Rejects with `checkpointNotFound` for an unknown commit.
   */
  restore(commit: string): Promise<RestoreResult | CheckpointsDisabled>;
}

/**
 * Opens (creating on first use) the shadow git repository of a project. Works in folders
 * that are not git repositories too. Never touches the user's repository, index, hooks or
 * config: git runs with its own GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE, no system or
 * global config and no hooks.
 */
export function createCheckpointStore(options: CheckpointStoreOptions): CheckpointStore {
  const env = options.env ?? process.env;
  const st: StoreState = {
    shadow: new ShadowRepo(
      options.checkpointsDir,
      options.projectRoot,
      env,
      options.gitTimeLimitMs,
      options.signal,
    ),
    env,
    limits: {
      maxFiles: options.maxFiles ?? 50_000,
      maxFileBytes: options.maxFileBytes ?? 8 * 1024 * 1024,
    },
  };
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => {});
    return run;
  };
  return {
    gitDir: st.shadow.gitDir,
    snapshot: (label) => serial(() => takeSnapshot(st, label)),
    warm: () =>
      serial(() => prepare(st)).then(
        () => {},
        () => {},
      ),
    diff: (from, to) => serial(() => diffTo(st, from, to)),
    restore: (commit) => serial(() => restoreTo(st, commit)),
  };
}

/** What the store's steps share: the shadow repository, what they learnt of the user's, its ref. */
interface StoreState {
  readonly shadow: ShadowRepo;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly limits: StageLimits;
  userRepo?: Promise<UserRepoInfo>;
  /** The checkpoint ref as last read or written (undefined: read it again). */
  head?: string | null | undefined;
}

/** Makes the shadow repository and its exclude file; true when the ignores changed. */
async function prepare(st: StoreState): Promise<boolean> {
  const { shadow, env } = st;
  // The user's repository is read while the shadow one is made (both spawn git).
  st.userRepo ??= readUserRepo(shadow.projectRoot, env, shadow.limits);
  const [repo] = await Promise.all([st.userRepo, shadow.init()]);
  if (repo.excludesFile) shadow.excludesFile = repo.excludesFile;
  const text = await buildExcludeText(shadow.projectRoot, repo, env, shadow.limits);
  return shadow.writeExclude(text);
}

/**
 * `prepare`, and the listing too when it can be taken with it: in process for a shadow
 * repository without an index yet (`listFirstLocally`), else, for a store that has not
 * read the user's repository yet, in the same spawn (see `readUserRepoAndList`).
 */
async function prepareAndList(
  st: StoreState,
): Promise<{ ignoresChanged: boolean; listed?: Buffer }> {
  const { shadow, env } = st;
  await shadow.init();
  let first = await listFirstLocally(shadow, env).catch(() => null);
  if (!first && st.userRepo === undefined) {
    // A script that failed is taken again step by step; one that hung is not.
    first = await readUserRepoAndList(shadow, env).catch((error: unknown) => {
      if (error instanceof GitTimeLimit) throw error;
      return null;
    });
  }
  if (!first) return { ignoresChanged: await prepare(st) };
  st.userRepo = Promise.resolve(first.repo);
  shadow.excludesFile = first.repo.excludesFile;
  if (first.listing) return { ignoresChanged: first.ignoresChanged, listed: first.listing };
  return { ignoresChanged: (await prepare(st)) || first.ignoresChanged };
}

async function verify(shadow: ShadowRepo, commit: string): Promise<string> {
  const out = await shadow
    .git(["rev-parse", "-q", "--verify", `${commit}^{commit}`])
    .catch(() => null);
  if (!out) throw new HostError("checkpointNotFound", `no checkpoint ${commit}`);
  return out.stdout.toString("utf8").trim();
}

async function readHead(st: StoreState): Promise<string | null> {
  if (st.head !== undefined) return st.head;
  st.head = await st.shadow.readRef(CHECKPOINT_REF);
  return st.head;
}

/**
 * A small first snapshot in process (it knows how many files it stored), anything else
 * through git's commit script (the index tells how many).
 */
async function commit(
  shadow: ShadowRepo,
  update: readonly string[],
  message: string,
  parent: string | null,
): Promise<{ commit: string; files: number }> {
  const first = await commitFirstSnapshot(shadow, update, message, parent);
  if (first) return first;
  const made = await commitIndex(shadow, update, message, parent);
  return { commit: made, files: await shadow.countEntries(shadow.indexFile) };
}

async function takeSnapshot(
  st: StoreState,
  label: string,
): Promise<Snapshot | CheckpointsDisabled> {
  const { shadow } = st;
  const { ignoresChanged, listed } = await prepareAndList(st);
  const plan = await planStage(shadow, shadow.indexFile, st.limits, ignoresChanged, listed);
  if ("disabled" in plan) return plan;
  const parent = await readHead(st);
  const message = snapshotMessage(label, plan.unstorable);
  const made = await commit(shadow, plan.update, message, parent).catch((error) => {
    st.head = undefined; // The ref may have moved under us: read it again next time.
    throw error;
  });
  st.head = made.commit;
  return { ...made, unstorable: plan.unstorable };
}

async function worktreeTree(st: StoreState): Promise<string | CheckpointsDisabled> {
  const { shadow } = st;
  const ignoresChanged = await prepare(st);
  const temp = `${shadow.indexFile}.diff-${process.pid}-${Date.now()}`;
  try {
    await copyFile(shadow.indexFile, temp).catch(() => {});
    const plan = await planStage(shadow, temp, st.limits, ignoresChanged);
    if ("disabled" in plan) return plan;
    return await writeIndexTree(shadow, temp, plan.update);
  } finally {
    await rm(temp, { force: true });
  }
}

async function diffTo(
  st: StoreState,
  from: string,
  to: string,
): Promise<CheckpointChange[] | CheckpointsDisabled> {
  await st.shadow.init();
  const a = await verify(st.shadow, from);
  const b = to === "worktree" ? await worktreeTree(st) : await verify(st.shadow, to);
  if (typeof b !== "string") return b;
  return compareTrees(st.shadow, a, b);
}

async function restoreTo(
  st: StoreState,
  commit: string,
): Promise<RestoreResult | CheckpointsDisabled> {
  const { shadow } = st;
  await shadow.init();
  const target = await verify(shadow, commit);
  const safety = await takeSnapshot(st, `before restoring ${target.slice(0, 12)}`);
  if ("disabled" in safety) return safety;
  const unstorable = new Set([...safety.unstorable, ...(await readUnstorable(shadow, target))]);
  const plan = await planRestore(shadow, safety.commit, target, unstorable);
  await applyRestore(shadow, target, plan);
  return {
    restored: plan.write,
    removed: plan.remove,
    unstorable: plan.leftAlone,
    safetySnapshot: safety,
  };
}
