import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { dirname, join } from "node:path";

async function info(path: string): Promise<Stats | undefined> {
  return stat(path).catch(() => undefined);
}

/** True when `dir` holds what a git folder holds (HEAD, objects/, refs/). */
async function looksLikeGitDir(dir: string): Promise<boolean> {
  const [head, objects, refs] = await Promise.all([
    info(join(dir, "HEAD")),
    info(join(dir, "objects")),
    info(join(dir, "refs")),
  ]);
  return Boolean(head?.isFile() && objects?.isDirectory() && refs?.isDirectory());
}

/** Git refuses a repository another user owns (safe.directory); so does this. */
function ownedByUs(entry: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || uid === 0 || entry.uid === uid;
}

/**
 * The git toplevel of `folder` (a real path), found as git's discovery finds it but without
 * spawning git (issue 18: no child process before the first request): the nearest folder,
 * `folder` or above it, with a `.git` folder holding a HEAD or a `.git` file naming one
 * (`gitdir: ...`, worktrees and submodules). Undefined when there is none, when the nearest
 * candidate is a bare repository (git refuses those under `safe.bareRepository=explicit`,
 * as the engine runs it), or when another user owns it. Never rejects.
 */
export async function findGitToplevel(folder: string): Promise<string | undefined> {
  for (let dir = folder; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const entry = await info(dotGit);
    if (entry?.isDirectory()) {
      if (!(await looksLikeGitDir(dotGit))) return undefined;
      return ownedByUs(entry) ? dir : undefined;
    }
    if (entry?.isFile()) {
      const text = await readFile(dotGit, "utf8").catch(() => "");
      return text.startsWith("gitdir:") && ownedByUs(entry) ? dir : undefined;
    }
    if (await looksLikeGitDir(dir)) return undefined;
    if (dirname(dir) === dir) return undefined;
  }
}
