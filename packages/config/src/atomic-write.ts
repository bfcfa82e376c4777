import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

function tempName(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/**
 * Writes a file atomically (temp file + rename), creating its folder (0700 when `mode` is a
 * private one, like 0600). Throws on failure.
 */
export async function writeFileAtomic(file: string, content: string, mode?: number): Promise<void> {
  const privateMode = mode !== undefined && (mode & 0o077) === 0;
  await mkdir(dirname(file), { recursive: true, ...(privateMode ? { mode: 0o700 } : {}) });
  const temp = tempName(file);
  try {
    await writeFile(temp, content, mode === undefined ? "utf8" : { encoding: "utf8", mode });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Creates a file atomically only if it does not exist yet (temp file + hard link, which
 * fails on an existing target). Returns false when the file already existed. Throws on
 * other failures.
 */
export function createFileExclusiveSync(file: string, content: string): boolean {
  mkdirSync(dirname(file), { recursive: true });
  const temp = tempName(file);
  writeFileSync(temp, content, "utf8");
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    // Some file systems refuse hard links: fall back to rename, still atomic.
    if ((error as NodeJS.ErrnoException).code === "EPERM") {
      renameSync(temp, file);
      return true;
    }
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}
