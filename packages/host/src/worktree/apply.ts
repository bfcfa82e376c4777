import {
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
  lstat,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { splitNul } from "../git.js";
import { type AgentWorktree, type WorktreeOptions, worktreeGit } from "./worktree.js";

/** Why a file could not be merged. */
export type ConflictKind =
  | "content"
  | "binary"
  | "deletedInProject"
  | "deletedByAgent"
  | "addedOnBoth";

/** One file that could not be merged: the three versions, as text (`null`: absent or binary). */
export interface MergeConflict {
  /** Relative to the repository's top folder. */
  readonly path: string;
  readonly kind: ConflictKind;
  /** The project's current file. */
  readonly ours: string | null;
  /** The agent's version. */
  readonly theirs: string | null;
  /** The version both started from. */
  readonly base: string | null;
  /** For a content conflict, git's merge with conflict markers. */
  readonly merged?: string;
}

/** The outcome of applying an agent's commit. */
export type ApplyResult =
  | {
      readonly applied: true;
      readonly written: readonly string[];
      readonly deleted: readonly string[];
    }
  | { readonly applied: false; readonly conflicts: readonly MergeConflict[] };

interface Change {
  readonly path: string;
  readonly mode: string;
  readonly base: Buffer | null;
  readonly theirs: Buffer | null;
}

type Plan = { write: Buffer; mode: string } | { delete: true } | { keep: true } | MergeConflict;

/** The changed paths between base and commit, with the agent's file mode. */
async function rawChanges(worktree: AgentWorktree, commit: string, options: WorktreeOptions) {
  const out = await worktreeGit(
    worktree.repoRoot,
    ["diff", "--no-renames", "--raw", "-z", worktree.base, commit],
    options,
  );
  const parts = splitNul(out.stdout);
  const changes: { path: string; mode: string; status: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const fields = (parts[i] ?? "").split(" ");
    changes.push({
      path: parts[i + 1] ?? "",
      mode: fields[1] ?? "100644",
      status: fields[4] ?? "M",
    });
  }
  return changes;
}

/** Reads many blobs in one `git cat-file --batch`; a missing one is `null`. */
async function readBlobs(
  cwd: string,
  names: readonly string[],
  options: WorktreeOptions,
): Promise<(Buffer | null)[]> {
  if (names.length === 0) return [];
  const out = (
    await worktreeGit(cwd, ["cat-file", "--batch"], { ...options, input: `${names.join("\n")}\n` })
  ).stdout;
  const blobs: (Buffer | null)[] = [];
  let at = 0;
  for (let i = 0; i < names.length; i++) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString("utf8");
    at = eol + 1;
    if (header.endsWith(" missing") || header.endsWith(" ambiguous")) {
      blobs.push(null);
      continue;
    }
    const size = Number(header.split(" ")[2]);
    blobs.push(out.subarray(at, at + size));
    at += size + 1;
  }
  return blobs;
}

/** The project's current file (a symlink as its target), or `null` when absent. */
async function readOurs(path: string): Promise<Buffer | null> {
  try {
    const info = await lstat(path);
    if (info.isSymbolicLink()) return Buffer.from(await readlink(path));
    return await readFile(path);
  } catch {
    return null;
  }
}

const isBinary = (b: Buffer | null) => b?.subarray(0, 8000).includes(0) === true;
const text = (b: Buffer | null) => (b === null || isBinary(b) ? null : b.toString("utf8"));
const same = (a: Buffer | null, b: Buffer | null) =>
  a === null || b === null ? a === b : a.equals(b);

function conflict(
  change: Change,
  ours: Buffer | null,
  kind: ConflictKind,
  merged?: string,
): MergeConflict {
  return {
    path: change.path,
    kind,
    ours: text(ours),
    theirs: text(change.theirs),
    base: text(change.base),
    ...(merged === undefined ? {} : { merged }),
  };
}

/** Decides one file without git: the trivial cases, or `null` when a text merge is needed. */
function decide(change: Change, ours: Buffer | null): Plan | null {
  const { base, theirs } = change;
  if (same(ours, theirs)) return { keep: true };
  if (same(ours, base))
    return theirs === null ? { delete: true } : { write: theirs, mode: change.mode };
  if (theirs === null) return conflict(change, ours, "deletedByAgent");
  if (ours === null) return conflict(change, ours, "deletedInProject");
  if (base === null) return conflict(change, ours, "addedOnBoth");
  if (isBinary(ours) || isBinary(base) || isBinary(theirs)) return conflict(change, ours, "binary");
  return null;
}

/** `git merge-file` over the three versions; the merged bytes, or a content conflict. */
async function mergeText(
  change: Change,
  ours: Buffer,
  scratch: string,
  options: WorktreeOptions,
): Promise<Plan> {
  const files = ["ours", "base", "theirs"].map((n) =>
    join(scratch, `${n}-${Math.random().toString(36).slice(2)}`),
  );
  const [o, b, t] = files as [string, string, string];
  await Promise.all([
    writeFile(o, ours),
    writeFile(b, change.base ?? ""),
    writeFile(t, change.theirs ?? ""),
  ]);
  const out = await worktreeGit(
    scratch,
    ["merge-file", "-p", "-L", "project", "-L", "base", "-L", "agent", o, b, t],
    { ...options, okCodes: Array.from({ length: 128 }, (_, i) => i) },
  );
  if (out.code === 0) return { write: out.stdout, mode: change.mode };
  return conflict(change, ours, "content", out.stdout.toString("utf8"));
}

async function writeOne(path: string, plan: { write: Buffer; mode: string }): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  if (plan.mode === "120000") {
    await rm(path, { force: true });
    await symlink(plan.write.toString("utf8"), path);
    return;
  }
  await writeFile(path, plan.write, { mode: plan.mode === "100755" ? 0o755 : 0o644 });
}

/**
 * Applies an agent's commit to the project's current files with a three-way merge per file
 * (base = the worktree's start, theirs = the agent's commit, ours = the files on disk now,
 * uncommitted changes included). All or nothing: when any file conflicts (both changed the
 * same lines, one side deleted what the other changed, both added different files, or a
 * binary file changed on both sides) nothing is written and each conflict is reported with
 * the three versions. Resolves with the written and deleted absolute paths otherwise. Rejects
 * with a `HostError` (`git_failed`) when git fails, or with a file-system error while writing.
 */
export async function applyAgentCommit(
  worktree: AgentWorktree,
  commit: string,
  options: WorktreeOptions = {},
): Promise<ApplyResult> {
  const raw = await rawChanges(worktree, commit, options);
  // One batch read: for each change its base blob (none when added) and its agent blob
  // (none when deleted).
  const wanted = raw.flatMap((c) => [
    c.status === "A" ? null : `${worktree.base}:${c.path}`,
    c.status === "D" ? null : `${commit}:${c.path}`,
  ]);
  const found = await readBlobs(
    worktree.repoRoot,
    wanted.filter((n): n is string => n !== null),
    options,
  );
  let next = 0;
  const take = (name: string | null) => (name === null ? null : (found[next++] ?? null));
  const changes: Change[] = raw.map((c, i) => ({
    path: c.path,
    mode: c.mode,
    base: take(wanted[2 * i] ?? null),
    theirs: take(wanted[2 * i + 1] ?? null),
  }));
  const plans: [Change, Plan][] = [];
  let scratch: string | undefined;
  try {
    for (const change of changes) {
      const ours = await readOurs(join(worktree.repoRoot, change.path));
      let plan = decide(change, ours);
      if (plan === null && ours !== null) {
        scratch ??= await mkdtemp(join(tmpdir(), "z-engine-merge-"));
        plan = await mergeText(change, ours, scratch, options);
      }
      plans.push([change, plan ?? conflict(change, ours, "content")]);
    }
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
  const conflicts = plans.map(([, p]) => p).filter((p): p is MergeConflict => "kind" in p);
  if (conflicts.length > 0) return { applied: false, conflicts };
  const written: string[] = [];
  const deleted: string[] = [];
  for (const [change, plan] of plans) {
    const path = join(worktree.repoRoot, change.path);
    if ("write" in plan) {
      await writeOne(path, plan);
      written.push(path);
    } else if ("delete" in plan) {
      await rm(path, { force: true });
      deleted.push(path);
    }
  }
  return { applied: true, written, deleted };
}
