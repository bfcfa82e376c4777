import { lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ENGINE_ATTRIBUTES,
  type EngineRepository,
  engineConfigText,
} from "../engine-repository.js";
import { HostError } from "../errors.js";
import { readRegularText } from "../repo-local.js";

/**
 * A worktree agent's git repository: the engine's own, in a folder the engine chose (the
 * session's), never under the project. Its config and `info/attributes` are the engine's;
 * the project's objects are reached read-only through `objects/info/alternates`; the agent's
 * branch and commit live here, not in the user's repository. The worktree folder gets a
 * `.git` file naming it, for the agent's own git commands; the engine never follows that
 * file (every call sets `GIT_DIR` and `GIT_WORK_TREE`) and refuses to go on once it names
 * anything else.
 */
export interface AgentRepositoryLayout {
  /** The engine's git folder for the agent. */
  readonly gitDir: string;
  /** The user's common git folder, whose `objects` the agent's repository borrows. */
  readonly projectCommonDir: string;
  readonly objectFormat: "sha1" | "sha256";
}

/** What the worktree's `.git` file holds: the line git reads, naming the engine's folder. */
export const gitLinkText = (gitDir: string) => `gitdir: ${gitDir}\n`;

/**
 * Writes (or writes again) what the engine owns in the agent's repository: its config,
 * `info/attributes`, the alternates naming the project's objects, and the project's
 * `shallow` list (so a shallow clone's history reads). Removes a `commondir` or
 * `config.worktree` someone added (either would make git read another config). Creates
 * the folders on first use. Synchronous: a few small files. Throws a file-system error.
 */
export function writeAgentRepository(layout: AgentRepositoryLayout): void {
  const { gitDir } = layout;
  for (const dir of ["objects/info", "objects/pack", "refs/heads", "info"]) {
    mkdirSync(join(gitDir, dir), { recursive: true, mode: 0o700 });
  }
  for (const stray of ["commondir", "config.worktree"])
    rmSync(join(gitDir, stray), { force: true });
  writeFileSync(join(gitDir, "config"), engineConfigText(layout.objectFormat));
  writeFileSync(join(gitDir, "info", "attributes"), ENGINE_ATTRIBUTES);
  writeFileSync(
    join(gitDir, "objects", "info", "alternates"),
    `${join(layout.projectCommonDir, "objects")}\n`,
  );
  let shallow: string | null = null;
  try {
    shallow = readRegularText(join(layout.projectCommonDir, "shallow"));
  } catch {
    // Too large to copy: history past the agent's base may not read; its own work does.
  }
  if (shallow !== null) writeFileSync(join(gitDir, "shallow"), shallow);
}

/**
 * Throws a `HostError` (`worktreeTampered`) unless `path` is still the worktree the engine
 * made: a real folder (no link on its way: its real path is itself) whose `.git` is a
 * regular file naming `gitDir`, as {@link gitLinkText} wrote it.
 */
export function checkWorktreeLink(path: string, gitDir: string): void {
  const why = worktreeLinkProblem(path, gitDir);
  if (why !== null)
    throw new HostError(
      "worktreeTampered",
      `the worktree ${path} ${why}; the engine will not run git there`,
    );
}

/** What is wrong with the worktree at `path` (see {@link checkWorktreeLink}), or null. */
function worktreeLinkProblem(path: string, gitDir: string): string | null {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return "is gone";
  }
  if (real !== path) return `is reached through a symbolic link (it is really ${real})`;
  const link = join(path, ".git");
  if (!lstatSync(link, { throwIfNoEntry: false })?.isFile())
    return "has no .git file of the engine's any more";
  let text: string;
  try {
    text = readFileSync(link, "utf8");
  } catch {
    return "has a .git file that cannot be read";
  }
  return text === gitLinkText(gitDir) ? null : "has a .git file that names another git folder";
}

/** The engine repository of a worktree: its git folder, and the worktree as its work tree. */
export function agentRepository(gitDir: string, workTree?: string): EngineRepository {
  return { kind: "engine", gitDir, ...(workTree ? { workTree } : {}) };
}
