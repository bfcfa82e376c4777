import { runGitScript } from "./git.js";

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
 * `ls-files` calls in one script. Neither reads a file's content or trusts the stat data
 * git's index holds (git compares modification times to the second only, so an index entry
 * may keep the nanoseconds of an earlier version of its file). Null when `root` is not in a
 * repository, or git fails or refuses there.
 */
export async function gitFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<GitFiles | null> {
  try {
    const out = await runGitScript("list the files", LIST_SCRIPT, { cwd: root, git: { env } });
    const entries = splitBytes(out.stdout);
    const split = entries.indexOf("//");
    if (split < 0) return null;
    const tracked: string[] = [];
    // An unmerged path is listed once per stage, side by side.
    for (const path of entries.slice(0, split)) {
      if (path !== tracked[tracked.length - 1]) tracked.push(path);
    }
    return { tracked, untracked: entries.slice(split + 1) };
  } catch {
    return null;
  }
}
