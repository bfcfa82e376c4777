import { chmod, mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Makes the engine's data folder the user's alone (issue 38, item 24): created 0700 when
 * missing (its parents with the usual modes), and set back to 0700 when it lets the group or
 * others in and this user owns it. It holds copies of the project's files (checkpoints, the
 * repo map's cache) and every conversation, so a folder that was 0755 (an older install)
 * closes everything under it at once. Never rejects: a folder it cannot change stays as it is.
 */
export async function privateFolder(dir: string): Promise<void> {
  try {
    await mkdir(dirname(dir), { recursive: true });
    await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
    const info = await stat(dir);
    if ((info.mode & 0o077) !== 0 && info.uid === process.getuid?.())
      await chmod(dir, info.mode & 0o700);
  } catch {
    // Read-only or foreign: the writers below still make their own files private.
  }
}
