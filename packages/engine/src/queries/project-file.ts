import { constants } from "node:fs";
import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/** A project file as the Changes screen reads it: its bytes, a link's target, or nothing. */
export type ProjectFile =
  | { readonly kind: "file"; readonly bytes: Buffer }
  | { readonly kind: "link"; readonly target: string }
  | { readonly kind: "absent" }
  | { readonly kind: "tooLarge"; readonly size: number }
  | { readonly kind: "other" };

/** What the screens read of one file at most (a checkpoint stores files up to 8 MiB). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Whether `path` is a project-relative path a query may touch: relative, `/`-separated, no
 * `..` or `.` segment, nothing inside a `.git` folder.
 */
export function isSafeRelativePath(path: string): boolean {
  if (path === "" || isAbsolute(path) || path.includes("\0") || path.includes("\\")) return false;
  return path
    .split("/")
    .every((part) => part !== "" && part !== "." && part !== ".." && part !== ".git");
}

/**
 * Whether the folder `path` would be written in lies inside `root` once links are resolved
 * (its nearest existing ancestor's real path is `root`'s or under it).
 */
export async function parentInside(root: string, path: string): Promise<boolean> {
  const realRoot = await realpath(root);
  let dir = dirname(join(root, path));
  for (;;) {
    const real = await realpath(dir).catch(() => null);
    if (real !== null) {
      const rel = relative(realRoot, real);
      return (
        rel === "" || (!rel.startsWith("..") && !isAbsolute(rel) && !rel.startsWith(`..${sep}`))
      );
    }
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}

/** Reads a project file without following a link at its own name. Never rejects. */
export async function readProjectFile(root: string, path: string): Promise<ProjectFile> {
  const full = join(root, path);
  const info = await lstat(full).catch(() => null);
  if (!info) return { kind: "absent" };
  if (info.isSymbolicLink()) return { kind: "link", target: await readlink(full).catch(() => "?") };
  if (!info.isFile()) return { kind: "other" };
  if (info.size > MAX_FILE_BYTES) return { kind: "tooLarge", size: info.size };
  const bytes = await readRegular(full, MAX_FILE_BYTES);
  return bytes ? { kind: "file", bytes } : { kind: "other" };
}

/**
 * Opens `path` only if it is a regular file at that very name (`O_NOFOLLOW`: a link swapped in
 * since an `lstat` fails; `O_NONBLOCK`: a FIFO does not hold the call), checked again on the
 * open handle. Null otherwise. Never rejects.
 */
async function openRegular(path: string): Promise<FileHandle | null> {
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(path, flags).catch(() => null);
  if (!handle) return null;
  const info = await handle.stat().catch(() => null);
  if (info?.isFile()) return handle;
  await handle.close();
  return null;
}

/** At most `max` bytes of the regular file at `path` (see {@link openRegular}), or null. Never rejects. */
export async function readRegular(path: string, max: number): Promise<Buffer | null> {
  const handle = await openRegular(path);
  if (!handle) return null;
  try {
    const buffer = Buffer.alloc(Math.min(max, (await handle.stat()).size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** The bytes as text, or null when they look binary (a NUL in the first 8,000 bytes). */
export function textOf(bytes: Buffer): string | null {
  return bytes.subarray(0, 8000).includes(0) ? null : bytes.toString("utf8");
}
