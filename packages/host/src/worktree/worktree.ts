import { existsSync } from "node:fs";
import { mkdir, realpath, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { HostError } from "../errors.js";
import { type GitOutput, runGit, runGitScript, splitNul } from "../git.js";

/** Options shared by the worktree functions. */
export interface WorktreeOptions {
  /** The environment git starts from (its `GIT_*` variables are dropped). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A worktree agent's own checkout. */
export interface AgentWorktree {
  /** The agent's name in `.z-engine/worktrees/<name>` and in its branch. */
  readonly name: string;
  /** The repository's top folder (the parent's files are merged into it). */
  readonly repoRoot: string;
  /** The worktree's top folder. */
  readonly path: string;
  /** Where the agent works: the worktree, or the same subfolder the project is in. */
  readonly root: string;
  /** The branch the agent's commit goes on, `z-engine/agents/<name>`. */
  readonly branch: string;
  /** The commit the worktree started from (the project's HEAD then). */
  readonly base: string;
}

/** One file a worktree agent changed. */
export interface WorktreeFileChange {
  /** Relative to the repository's top folder, `/`-separated. */
  readonly path: string;
  readonly status: "added" | "modified" | "deleted";
  /** Lines added and removed; `null` for a binary file. */
  readonly added: number | null;
  readonly removed: number | null;
}

/** What the agent left in its worktree, committed on its branch. */
export interface WorktreeSummary {
  /** The agent's commit, or `null` when it changed nothing. */
  readonly commit: string | null;
  readonly files: readonly WorktreeFileChange[];
}

const IDENTITY = {
  GIT_AUTHOR_NAME: "Z Engine agent",
  GIT_AUTHOR_EMAIL: "agent@z-engine.invalid",
  GIT_COMMITTER_NAME: "Z Engine agent",
  GIT_COMMITTER_EMAIL: "agent@z-engine.invalid",
};

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Runs git in `cwd` with the engine's neutral settings and the agent's identity. */
export function worktreeGit(
  cwd: string,
  args: readonly string[],
  options: WorktreeOptions & { input?: string; okCodes?: number[] } = {},
): Promise<GitOutput> {
  return runGit(args, {
    cwd,
    git: { ...(options.env ? { env: options.env } : {}), set: IDENTITY },
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.okCodes === undefined ? {} : { okCodes: options.okCodes }),
  });
}

/** The repository's top folder, the project's path inside it, and HEAD; `null` outside git. */
async function locate(projectRoot: string, options: WorktreeOptions) {
  const out = await worktreeGit(
    projectRoot,
    ["rev-parse", "--show-toplevel", "--show-prefix", "--verify", "-q", "HEAD"],
    options,
  ).catch(() => null);
  if (!out) return null;
  const [top, prefix, head] = out.stdout.toString("utf8").split("\n");
  if (!top || !head) return null;
  return { top, prefix: (prefix ?? "").replace(/\/$/, ""), head };
}

/**
 * Creates `<project>/.z-engine/worktrees/<name>`, a git worktree on the new branch
 * `z-engine/agents/<name>` from the project's HEAD (the parent's uncommitted changes are not
 * in it). The folder gets a `.gitignore` of `*`, so the project's own status never lists it.
 * Rejects with a `HostError`: `not_git_repository` when the project is not in a git
 * repository with a commit, `worktree_failed` for a bad name or one already in use, and
 * `git_failed` when git fails.
 */
export async function createAgentWorktree(
  projectRoot: string,
  name: string,
  options: WorktreeOptions = {},
): Promise<AgentWorktree> {
  if (!SAFE_NAME.test(name))
    throw new HostError("worktree_failed", `"${name}" cannot name a worktree`);
  const where = await locate(projectRoot, options);
  if (!where)
    throw new HostError(
      "not_git_repository",
      `${projectRoot} is not in a git repository with a commit; worktree isolation needs one`,
    );
  const folder = join(await realpath(projectRoot), ".z-engine", "worktrees");
  const path = join(folder, name);
  if (existsSync(path)) throw new HostError("worktree_failed", `worktree ${path} already exists`);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, ".gitignore"), "*\n");
  const branch = `z-engine/agents/${name}`;
  await worktreeGit(where.top, ["worktree", "add", "-q", "-b", branch, path, where.head], options);
  const root = where.prefix === "" ? path : join(path, where.prefix);
  return { name, repoRoot: where.top, path, root, branch, base: where.head };
}

const STATUS: Record<string, WorktreeFileChange["status"]> = {
  A: "added",
  M: "modified",
  D: "deleted",
  T: "modified",
};

/**
 * Commits everything the agent changed in its worktree (new, changed and deleted files, as
 * the repository's ignores allow) on its branch and summarises the commit against the base:
 * each file with its status and lines added and removed (renames are a delete and an add).
 * Resolves `{ commit: null, files: [] }` when nothing changed. Rejects with a `HostError`
 * (`git_failed`) when git fails.
 */
export async function commitAgentWorktree(
  worktree: AgentWorktree,
  options: WorktreeOptions = {},
): Promise<WorktreeSummary> {
  // The name is checked against SAFE_NAME, so it needs no quoting beyond the single quotes.
  const script = `set -e
git "$@" add -A
if git "$@" diff --cached --quiet; then exit 0; fi
git "$@" commit -q --no-verify -m 'agent ${worktree.name}'
`;
  await runGitScript("commit the agent's worktree", script, {
    cwd: worktree.path,
    git: { ...(options.env ? { env: options.env } : {}), set: IDENTITY },
  });
  const head = (await worktreeGit(worktree.path, ["rev-parse", "HEAD"], options)).stdout
    .toString("utf8")
    .trim();
  if (head === worktree.base) return { commit: null, files: [] };
  return { commit: head, files: await changedFiles(worktree, head, options) };
}

/** The files that differ between the worktree's base and `commit`, with line counts. */
export async function changedFiles(
  worktree: AgentWorktree,
  commit: string,
  options: WorktreeOptions = {},
): Promise<WorktreeFileChange[]> {
  const range = [worktree.base, commit];
  const [status, numstat] = await Promise.all([
    worktreeGit(worktree.path, ["diff", "--no-renames", "--name-status", "-z", ...range], options),
    worktreeGit(worktree.path, ["diff", "--no-renames", "--numstat", "-z", ...range], options),
  ]);
  const counts = new Map<string, [number | null, number | null]>();
  for (const entry of splitNul(numstat.stdout)) {
    const [added, removed, path] = entry.split("\t");
    if (path === undefined) continue;
    const n = (v: string | undefined) => (v === "-" || v === undefined ? null : Number(v));
    counts.set(path, [n(added), n(removed)]);
  }
  const parts = splitNul(status.stdout);
  const files: WorktreeFileChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const path = parts[i + 1] ?? "";
    const [added, removed] = counts.get(path) ?? [null, null];
    files.push({ path, status: STATUS[parts[i] ?? ""] ?? "modified", added, removed });
  }
  return files;
}

/**
 * Removes the worktree folder and its branch (after its changes were applied, or to discard
 * them). Resolves once both are gone; a worktree already removed is not an error. Rejects
 * with a `HostError` (`git_failed`) when git fails otherwise.
 */
export async function removeAgentWorktree(
  worktree: AgentWorktree,
  options: WorktreeOptions = {},
): Promise<void> {
  await worktreeGit(worktree.repoRoot, ["worktree", "remove", "--force", worktree.path], {
    ...options,
    okCodes: [0, 128],
  });
  await worktreeGit(worktree.repoRoot, ["worktree", "prune"], options);
  await worktreeGit(worktree.repoRoot, ["branch", "-D", "-q", worktree.branch], {
    ...options,
    okCodes: [0, 1],
  });
}
