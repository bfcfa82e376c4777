import { createHash } from "node:crypto";
import { lstatSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { walkProject } from "./checkpoint/project-walk.js";
import { parseIndex } from "./git-index.js";
import { GitTimeLimit, runGitScript } from "./git.js";
import { defaultExcludesFile, readRegularText, readRepoLocally } from "./repo-local.js";

/**
 * The files of a folder as its git repository sees them. Paths are byte strings (one
 * character per byte, as `latin1` decodes), relative to the folder, so any file name
 * survives as is.
 */
export interface GitFiles {
  /** Tracked paths, in the index's (byte) order, each once. */
  readonly tracked: string[];
  /** Untracked paths that are not ignored, in no particular order. */
  readonly untracked: string[];
}

function splitBytes(output: Buffer): string[] {
  const parts = output.toString("latin1").split("\0");
  parts.pop();
  return parts;
}

/**
 * Lists the tracked files, then a `//` entry (no path git lists is `//`), then the untracked
 * files the ignores do not cover: one spawn for both lists (issue 18: each spawn from a
 * large Node process costs, and the fingerprint is taken at every turn's start).
 */
const LIST_SCRIPT = `set -e
git "$@" ls-files -z --cached
printf '//\\000'
git "$@" ls-files -z --others --exclude-standard
`;

/**
 * The tracked files under `root` and the untracked ones its ignores do not cover, from two
 * `ls-files` calls in one script, or read in process for a small plain repository (see
 * {@link localGitFiles}). Neither reads a file's content or trusts the stat data git's index
 * holds (git compares modification times to the second only, so an index entry may keep the
 * nanoseconds of an earlier version of its file). Null when `root` is not in a repository,
 * or git fails or refuses there.
 */
export async function gitFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number = LIST_TIME_LIMIT_MS,
  signal?: AbortSignal,
): Promise<GitFiles | null> {
  const local = localGitFiles(root, env);
  return local !== undefined ? local : spawnGitFiles(root, env, timeoutMs, signal);
}

/** How long git's listing may take by default (two minutes). */
const LIST_TIME_LIMIT_MS = 2 * 60 * 1000;

/**
 * {@link gitFiles} as git lists them (the script), whatever the repository. Rejects with
 * a `GitTimeLimit` when git did not finish within `timeoutMs` (git blocks for ever opening
 * a FIFO where it reads an ignore file), or with a `HostError` when `signal` aborts:
 * walking instead could take as long.
 */
export async function spawnGitFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs: number = LIST_TIME_LIMIT_MS,
  signal?: AbortSignal,
): Promise<GitFiles | null> {
  try {
    const out = await runGitScript("list the files", LIST_SCRIPT, {
      repo: { kind: "user", folder: root },
      env,
      timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const entries = splitBytes(out.stdout);
    const split = entries.indexOf("//");
    if (split < 0) return null;
    const tracked: string[] = [];
    // An unmerged path is listed once per stage, side by side.
    for (const path of entries.slice(0, split)) {
      if (path !== tracked[tracked.length - 1]) tracked.push(path);
    }
    return { tracked, untracked: entries.slice(split + 1) };
  } catch (error) {
    if (error instanceof GitTimeLimit || signal?.aborted) throw error;
    return null;
  }
}

/** A small repository's files are listed in process; a larger one's by git. */
const LOCAL_LIMITS = { maxFiles: 1_000, maxDirs: 256, maxIndexBytes: 1024 * 1024 };

/** The index's paths (byte strings) in its order, each once; undefined when git should read it. */
function readTracked(gitDir: string, hashLength: 20 | 32): string[] | undefined {
  const file = join(gitDir, "index");
  const info = lstatSync(file, { throwIfNoEntry: false });
  if (!info) return [];
  if (!info.isFile() || info.size > LOCAL_LIMITS.maxIndexBytes) return undefined;
  const buf = readFileSync(file);
  // Git refuses an index whose checksum is wrong; so does this reader.
  const end = buf.length - hashLength;
  const sum = createHash(hashLength === 20 ? "sha1" : "sha256").update(buf.subarray(0, end));
  if (end < 0 || !sum.digest().equals(buf.subarray(end))) return undefined;
  const index = parseIndex(buf, hashLength, true);
  // A split or sparse index holds entries elsewhere or folders as entries: git reads those.
  if (!index || index.extensions.has("link") || index.extensions.has("sdir")) return undefined;
  const tracked: string[] = [];
  for (const { path } of index.entries) {
    if (path !== tracked[tracked.length - 1]) tracked.push(path);
  }
  return tracked;
}

/**
 * {@link gitFiles} without a spawn (issue 18: the first tool waits for the turn's
 * fingerprint) for the plain case: `root` is the top level of a repository with a plain
 * index, or in no repository (null, as git's answer), and few enough files to walk. The
 * ignores are those git applies with no user config: `.gitignore` files, `info/exclude`,
 * and the repository's `core.excludesFile` or git's default excludes file; a FIFO or
 * device in their place counts as empty, where git would block for ever. Undefined when
 * git should answer.
 */
export function localGitFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): GitFiles | null | undefined {
  try {
    const real = realpathSync(root);
    const repo = readRepoLocally(real, env, false);
    if (!repo) return undefined;
    if (!repo.gitDir) return null;
    const tracked = readTracked(repo.gitDir, repo.hashLength);
    if (!tracked) return undefined;
    const excludesFile = repo.excludesFile ?? defaultExcludesFile(env);
    const walk = walkProject(real, {
      excludesFile: excludesFile ? readRegularText(excludesFile) : null,
      infoExclude: readRegularText(join(repo.gitDir, "info", "exclude")) ?? "",
      maxFiles: LOCAL_LIMITS.maxFiles,
      maxDirs: LOCAL_LIMITS.maxDirs,
    });
    if ("unsupported" in walk) return undefined;
    const known = new Set(tracked);
    const untracked: string[] = [];
    for (const path of walk.files) {
      const bytes = Buffer.from(path, "utf8").toString("latin1");
      if (!known.has(bytes)) untracked.push(bytes);
    }
    return { tracked, untracked };
  } catch {
    return undefined;
  }
}
