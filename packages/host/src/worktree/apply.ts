import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { splitNul } from "../git.js";
import {
  checkProjectPath,
  deleteProjectPath,
  linkRefusal,
  readProjectPath,
  writeProjectPath,
} from "./project-paths.js";
import { type AgentWorktree, type WorktreeOptions, agentGit } from "./worktree.js";

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

/** A path the engine will not write: a link on its way or leading out of the project, a FIFO, ... */
export interface RefusedPath {
  /** Relative to the repository's top folder. */
  readonly path: string;
  readonly reason: string;
}

/** The outcome of applying an agent's commit. */
export type ApplyResult =
  | {
      readonly applied: true;
      readonly written: readonly string[];
      readonly deleted: readonly string[];
    }
  | {
      readonly applied: false;
      readonly conflicts: readonly MergeConflict[];
      readonly refused: readonly RefusedPath[];
    };

interface Change {
  readonly path: string;
  readonly mode: string;
  readonly base: Buffer | null;
  readonly theirs: Buffer | null;
}

type Plan =
  | { write: Buffer; mode: string }
  | { delete: true }
  | { keep: true }
  | MergeConflict
  | { refused: string };

/** The changed paths between base and commit, with the agent's file mode. */
async function rawChanges(worktree: AgentWorktree, commit: string, options: WorktreeOptions) {
  const out = await agentGit(
    worktree,
    ["diff", "--no-renames", "--no-ext-diff", "--raw", "-z", worktree.base, commit],
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

/** Reads many blobs in one `git cat-file --batch` of the agent's repository; a missing one is `null`. */
async function readBlobs(
  worktree: AgentWorktree,
  names: readonly string[],
  options: WorktreeOptions,
): Promise<(Buffer | null)[]> {
  if (names.length === 0) return [];
  const input = `${names.join("\n")}\n`;
  const out = (await agentGit(worktree, ["cat-file", "--batch"], { ...options, input })).stdout;
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

/** `git merge-file` (in the agent's repository) over the three versions; the merged bytes, or a content conflict. */
async function mergeText(
  worktree: AgentWorktree,
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
  const out = await agentGit(
    { gitDir: worktree.gitDir },
    ["merge-file", "-p", "-L", "project", "-L", "base", "-L", "agent", o, b, t],
    { ...options, cwd: scratch, okCodes: Array.from({ length: 128 }, (_, i) => i) },
  );
  if (out.code === 0) return { write: out.stdout, mode: change.mode };
  return conflict(change, ours, "content", out.stdout.toString("utf8"));
}

/** The plan for one change: refused, or decided against the project's file now. */
async function planOne(
  worktree: AgentWorktree,
  change: Change,
  scratch: () => Promise<string>,
  options: WorktreeOptions,
): Promise<Plan> {
  if (change.mode === "160000") return { refused: `${change.path} is a submodule entry` };
  const checked = await checkProjectPath(worktree.repoRoot, change.path);
  if (!checked.ok) return { refused: checked.reason };
  if (change.mode === "120000" && change.theirs !== null) {
    const why = linkRefusal(worktree.repoRoot, change.path, change.theirs.toString("utf8"));
    if (why) return { refused: why };
  }
  const ours = await readProjectPath(worktree.repoRoot, change.path, checked.target);
  const plan = decide(change, ours);
  if (plan !== null) return plan;
  if (ours === null) return conflict(change, ours, "content");
  return mergeText(worktree, change, ours, await scratch(), options);
}

/** Each change with its base blob (none when added) and its agent blob (none when deleted). */
async function changesOf(
  worktree: AgentWorktree,
  commit: string,
  options: WorktreeOptions,
): Promise<Change[]> {
  const raw = await rawChanges(worktree, commit, options);
  const wanted = raw.flatMap((c) => [
    c.status === "A" ? null : `${worktree.base}:${c.path}`,
    c.status === "D" ? null : `${commit}:${c.path}`,
  ]);
  const found = await readBlobs(
    worktree,
    wanted.filter((n): n is string => n !== null),
    options,
  );
  let next = 0;
  const take = (name: string | null) => (name === null ? null : (found[next++] ?? null));
  return raw.map((c, i) => ({
    path: c.path,
    mode: c.mode,
    base: take(wanted[2 * i] ?? null),
    theirs: take(wanted[2 * i + 1] ?? null),
  }));
}

/**
 * Applies an agent's commit to the project's current files with a three-way merge per file
 * (base = the worktree's start, theirs = the agent's commit, ours = the files on disk now,
 * uncommitted changes included). All or nothing: when any file conflicts (both changed the
 * same lines, one side deleted what the other changed, both added different files, or a
 * binary file changed on both sides) or is refused (a folder on its way is a symbolic link,
 * it is a link whose real location leaves the project, a folder or a FIFO, or the agent's
 * link would lead out), nothing is written and each is reported. Writes never follow a link
 * (see `project-paths.ts`). Resolves with the written and deleted absolute paths otherwise.
 * Rejects with a `HostError` (`gitFailed`, `worktreeFailed` when a path changed between
 * the check and its write) or a file-system error while writing.
 */
export async function applyAgentCommit(
  worktree: AgentWorktree,
  commit: string,
  options: WorktreeOptions = {},
): Promise<ApplyResult> {
  const changes = await changesOf(worktree, commit, options);
  const plans: [Change, Plan][] = [];
  let scratch: string | undefined;
  const scratchDir = async () => {
    scratch ??= await mkdtemp(join(tmpdir(), "z-engine-merge-"));
    return scratch;
  };
  try {
    for (const change of changes) {
      plans.push([change, await planOne(worktree, change, scratchDir, options)]);
    }
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
  const conflicts = plans.map(([, p]) => p).filter((p): p is MergeConflict => "kind" in p);
  const refused = plans.flatMap(([c, p]) =>
    "refused" in p ? [{ path: c.path, reason: p.refused }] : [],
  );
  if (conflicts.length > 0 || refused.length > 0) return { applied: false, conflicts, refused };
  const written: string[] = [];
  const deleted: string[] = [];
  for (const [change, plan] of plans) {
    if ("write" in plan) {
      await writeProjectPath(worktree.repoRoot, change.path, plan.write, plan.mode);
      written.push(join(worktree.repoRoot, change.path));
    } else if ("delete" in plan) {
      await deleteProjectPath(worktree.repoRoot, change.path);
      deleted.push(join(worktree.repoRoot, change.path));
    }
  }
  return { applied: true, written, deleted };
}
