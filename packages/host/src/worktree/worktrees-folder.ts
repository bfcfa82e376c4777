import { constants } from "node:fs";
import { lstat, mkdir, open, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { HostError } from "../errors.js";

/**
 * `<project>/.z-engine/worktrees`, made folder by folder as real folders (a link or a file in
 * the way is refused: the project could commit `.z-engine -> ~`), with a `.gitignore` of `*`
 * so the project's own status never lists it (an existing one is replaced, never written
 * through).
 */
export async function worktreesFolder(projectRoot: string): Promise<string> {
  let folder = projectRoot;
  for (const part of [".z-engine", "worktrees"]) {
    folder = join(folder, part);
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    let entry = await lstat(folder);
    if (part === "worktrees" && entry.isFile() && entry.size === 0) {
      // The mount point a running sandboxed command's bubblewrap made for the protected,
      // missing `.z-engine/worktrees`: an empty file, replaced by the folder.
      await unlink(folder);
      await mkdir(folder);
      entry = await lstat(folder);
    }
    if (!entry.isDirectory())
      throw new HostError("worktreeFailed", `${folder} is not a folder the engine can use`);
  }
  await writeNewFile(join(folder, ".gitignore"), "*\n", true);
  return folder;
}

/**
 * Writes `text` as a new regular file at `path`, never through a link: created `O_EXCL |
 * O_NOFOLLOW`. With `replace`, whatever is there (a link the project committed, say) is
 * removed first unless it already is a regular file holding `text`.
 */
export async function writeNewFile(path: string, text: string, replace: boolean): Promise<void> {
  if (replace) {
    const entry = await lstat(path).catch(() => null);
    if (entry?.isFile() && (await readFile(path, "utf8")) === text) return;
    if (entry) await unlink(path);
  }
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  const handle = await open(path, flags, 0o644);
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}
