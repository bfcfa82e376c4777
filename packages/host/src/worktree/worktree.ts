import { lstat, mkdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { HostError } from "../errors.js";
import { type GitOutput, runGit, runGitScript, splitNul } from "../git.js";
import { findGitRepository } from "../git-repository.js";
import {
  agentRepository,
  checkWorktreeLink,
  gitLinkText,
  writeAgentRepository,
} from "./agent-repository.js";
import { worktreesFolder, writeNewFile } from "./worktrees-folder.js";

/** Options shared by the worktree functions. */
export interface WorktreeOptions {
  /** The environment git starts from (its `GIT_*` variables are dropped). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A worktree agent's own checkout and the engine's repository behind it. */
export interface AgentWorktree {
  /** The agent's name in `.z-engine/worktrees/<name>` and in its branch. */
  readonly name: string;
  /** The user's repository's top folder (the agent's files are merged into it). */
  readonly repoRoot: string;
  /** The worktree's top folder: `<project>/.z-engine/worktrees/<name>`. */
  readonly path: string;
  /** Where the agent works: the worktree, or the same subfolder the project is in. */
  readonly root: string;
  /** The engine's git folder for the agent (in a folder the engine owns, never the project). */
  readonly gitDir: string;
  /** The branch the agent's commit goes on in the engine's repository, `z-engine/agents/<name>`. */
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

/** Names the store and the worktree folders accept. */
export const WORKTREE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Runs git on the agent's repository (explicit `GIT_DIR`, the worktree as work tree when `workTree`). */
export function agentGit(
  worktree: Pick<AgentWorktree, "gitDir"> & { readonly path?: string },
  args: readonly string[],
  options: WorktreeOptions & { input?: string; okCodes?: number[]; cwd?: string } = {},
): Promise<GitOutput> {
  return runGit(args, {
    repo: agentRepository(worktree.gitDir, worktree.path),
    ...(options.env ? { env: options.env } : {}),
    set: IDENTITY,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.okCodes === undefined ? {} : { okCodes: options.okCodes }),
  });
}

/** The user's repository around `projectRoot` (a real path): top, common folder, prefix, HEAD. */
async function locate(projectRoot: string, options: WorktreeOptions) {
  const found = findGitRepository(projectRoot, options.env ?? process.env);
  if (!found) return null;
  const out = await runGit(
    ["rev-parse", "--show-object-format", "--verify", "-q", "HEAD^{commit}"],
    {
      repo: { kind: "user", folder: projectRoot },
      ...(options.env ? { env: options.env } : {}),
    },
  ).catch(() => null);
  const [format, head] = (out?.stdout.toString("utf8") ?? "").split("\n");
  if (!head) return null;
  const objectFormat = format === "sha256" ? ("sha256" as const) : ("sha1" as const);
  return { found, prefix: relative(found.workTree, projectRoot), head, objectFormat };
}

/** Checks out `base` into the new worktree, on the agent's branch, in the agent's repository. */
const CHECKOUT = `set -e
git "$@" update-ref "refs/heads/$ZENG_BRANCH" "$ZENG_BASE"
git "$@" read-tree --reset -u HEAD
`;

/**
 * Creates `<project>/.z-engine/worktrees/<name>`, a checkout of the project's HEAD (the
 * parent's uncommitted changes are not in it) on the branch `z-engine/agents/<name>` of a
 * new repository of the engine's at `gitDir` (which must not exist; keep it out of the
 * project), whose objects come from the user's repository read-only. No filter, hook or
 * other program the project's git config names runs. Rejects with a `HostError`:
 * `notGitRepository` when the project is not in a git repository with a commit,
 * `worktreeFailed` for a bad name, a name in use or a link in the way, and `gitFailed`
 * when git fails.
 */
export async function createAgentWorktree(
  projectRoot: string,
  name: string,
  gitDir: string,
  options: WorktreeOptions = {},
): Promise<AgentWorktree> {
  if (!WORKTREE_NAME.test(name))
    throw new HostError("worktreeFailed", `"${name}" cannot name a worktree`);
  const project = await realpath(projectRoot);
  const where = await locate(project, options);
  if (!where)
    throw new HostError(
      "notGitRepository",
      `${projectRoot} is not in a git repository with a commit; worktree isolation needs one`,
    );
  if (await lstat(gitDir).catch(() => null))
    throw new HostError("worktreeFailed", `the agent's repository ${gitDir} already exists`);
  const path = join(await worktreesFolder(project), name);
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    throw new HostError("worktreeFailed", `worktree ${path} already exists`, { cause: error });
  });
  const worktree: AgentWorktree = {
    name,
    repoRoot: where.found.workTree,
    path,
    root: where.prefix === "" ? path : join(path, where.prefix),
    gitDir,
    branch: `z-engine/agents/${name}`,
    base: where.head,
  };
  try {
    await checkOut(worktree, where.found.commonDir, where.objectFormat, options);
  } catch (error) {
    // Nothing half made is left behind.
    await removeAgentWorktree(worktree).catch(() => {});
    throw error;
  }
  return worktree;
}

/** Makes the agent's repository and checks its base out into the (new, empty) worktree. */
async function checkOut(
  worktree: AgentWorktree,
  projectCommonDir: string,
  objectFormat: "sha1" | "sha256",
  options: WorktreeOptions,
): Promise<void> {
  const { gitDir, path, branch, base } = worktree;
  writeAgentRepository({ gitDir, projectCommonDir, objectFormat });
  await writeFile(join(gitDir, "HEAD"), `ref: refs/heads/${branch}\n`);
  await runGitScript("check out the agent's worktree", CHECKOUT, {
    repo: agentRepository(gitDir, path),
    ...(options.env ? { env: options.env } : {}),
    set: { ZENG_BRANCH: branch, ZENG_BASE: base },
  });
  await writeNewFile(join(path, ".git"), gitLinkText(gitDir), false);
}

const STATUS: Record<string, WorktreeFileChange["status"]> = {
  A: "added",
  M: "modified",
  D: "deleted",
  T: "modified",
};

const COMMIT = `set -e
git "$@" add -A
if git "$@" diff --cached --quiet; then exit 0; fi
git "$@" commit -q --no-verify -m "agent $ZENG_NAME"
`;

/**
 * Commits everything the agent changed in its worktree (new, changed and deleted files, as
 * the repository's ignores allow) on its branch in the engine's repository and summarises
 * the commit against the base: each file with its status and lines added and removed
 * (renames are a delete and an add). Writes the engine's config, attributes and alternates
 * again first. Resolves `{ commit: null, files: [] }` when nothing changed. Rejects with a
 * `HostError`: `worktreeTampered` when the worktree's `.git` file no longer names the
 * engine's repository (or the folder is reached through a link), `gitFailed` when git fails.
 */
export async function commitAgentWorktree(
  worktree: AgentWorktree,
  options: WorktreeOptions = {},
): Promise<WorktreeSummary> {
  checkWorktreeLink(worktree.path, worktree.gitDir);
  const common = findGitRepository(worktree.repoRoot, options.env ?? process.env)?.commonDir;
  if (!common)
    throw new HostError("notGitRepository", `${worktree.repoRoot} is no repository any more`);
  writeAgentRepository({
    gitDir: worktree.gitDir,
    projectCommonDir: common,
    objectFormat: await objectFormat(worktree),
  });
  await runGitScript("commit the agent's worktree", COMMIT, {
    repo: agentRepository(worktree.gitDir, worktree.path),
    ...(options.env ? { env: options.env } : {}),
    set: { ...IDENTITY, ZENG_NAME: worktree.name },
  });
  const head = (await agentGit(worktree, ["rev-parse", "HEAD"], options)).stdout
    .toString("utf8")
    .trim();
  if (head === worktree.base) return { commit: null, files: [] };
  return { commit: head, files: await changedFiles(worktree, head, options) };
}

/** The object format the agent's repository was made with (its config says). */
async function objectFormat(worktree: AgentWorktree): Promise<"sha1" | "sha256"> {
  const config = await readFile(join(worktree.gitDir, "config"), "utf8").catch(() => "");
  return /objectformat\s*=\s*sha256/i.test(config) || worktree.base.length === 64
    ? "sha256"
    : "sha1";
}

/** The files that differ between the worktree's base and `commit`, with line counts. */
export async function changedFiles(
  worktree: AgentWorktree,
  commit: string,
  options: WorktreeOptions = {},
): Promise<WorktreeFileChange[]> {
  const diff = ["diff", "--no-renames", "--no-textconv", "--no-ext-diff", "-z"];
  const range = [worktree.base, commit];
  const [status, numstat] = await Promise.all([
    agentGit(worktree, [...diff, "--name-status", ...range], options),
    agentGit(worktree, [...diff, "--numstat", ...range], options),
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
 * Removes the worktree folder and the engine's repository for it (after its changes were
 * applied, or to discard them); nothing in the user's repository is touched, no branch of
 * it deleted. A link where the folder was is removed as a link, never followed. Resolves
 * once both are gone; either already gone is not an error. Rejects with a file-system error.
 */
export async function removeAgentWorktree(worktree: AgentWorktree): Promise<void> {
  await rm(worktree.gitDir, { recursive: true, force: true });
  const parent = dirname(worktree.path);
  const real = await realpath(parent).catch(() => null);
  // A folder on the way that became a link would lead the removal elsewhere.
  if (real !== null && real !== parent)
    throw new HostError("worktreeTampered", `${parent} is reached through a link; not removed`);
  await rm(worktree.path, { recursive: true, force: true });
}
