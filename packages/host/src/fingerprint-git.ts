import { runGit } from "./git.js";

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
 * The tracked files under `root` and the untracked ones its ignores do not cover, from two
 * `ls-files` calls run side by side. Neither reads a file's content or trusts the stat data
 * git's index holds (git compares modification times to the second only, so an index entry
 * may keep the nanoseconds of an earlier version of its file). Null when `root` is not in a
 * repository, or git fails or refuses there.
 */
export async function gitFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<GitFiles | null> {
  const git = (args: string[]) => runGit(args, { cwd: root, git: { env } });
  try {
    const [cached, others] = await Promise.all([
      git(["ls-files", "-z", "--cached"]),
      git(["ls-files", "-z", "--others", "--exclude-standard"]),
    ]);
    const tracked: string[] = [];
    // An unmerged path is listed once per stage, side by side.
    for (const path of splitBytes(cached.stdout)) {
      if (path !== tracked[tracked.length - 1]) tracked.push(path);
    }
    return { tracked, untracked: splitBytes(others.stdout) };
  } catch {
    return null;
  }
}
