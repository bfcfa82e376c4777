import { stat } from "node:fs/promises";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readRegular } from "./project-file.js";

const MAX_HEAD_BYTES = 4096;

async function readSmall(path: string): Promise<string | null> {
  return (await readRegular(path, MAX_HEAD_BYTES))?.toString("utf8") ?? null;
}

/** The git folder of the repository holding `dir`: a `.git` folder, or the one a `.git` file names. */
async function gitDirOf(dir: string): Promise<string | null> {
  let current = resolve(dir);
  for (;;) {
    const dotGit = join(current, ".git");
    const info = await stat(dotGit).catch(() => null);
    if (info?.isDirectory()) return dotGit;
    if (info?.isFile()) {
      const text = (await readSmall(dotGit)) ?? "";
      const named = /^gitdir:\s*(.+)$/m.exec(text)?.[1]?.trim();
      if (!named) return null;
      return isAbsolute(named) ? named : resolve(current, named);
    }
    const up = dirname(current);
    if (up === current) return null;
    current = up;
  }
}

/**
 * The branch checked out in the repository that holds `dir` (read from its HEAD file, no git
 * process runs), a short commit id when HEAD is detached, or null outside a repository or
 * when HEAD cannot be read. Never rejects.
 */
export async function gitBranch(dir: string): Promise<string | null> {
  const gitDir = await gitDirOf(dir);
  if (!gitDir) return null;
  const head = (await readSmall(join(gitDir, "HEAD")))?.trim();
  if (!head) return null;
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head)?.[1];
  if (ref) return ref;
  return /^[0-9a-f]{40,64}$/.test(head) ? head.slice(0, 8) : null;
}
