import { lstat, readFile, readlink, realpath } from "node:fs/promises";
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
  const bytes = await readFile(full).catch(() => null);
  return bytes ? { kind: "file", bytes } : { kind: "absent" };
}

/** The bytes as text, or null when they look binary (a NUL in the first 8,000 bytes). */
export function textOf(bytes: Buffer): string | null {
  return bytes.subarray(0, 8000).includes(0) ? null : bytes.toString("utf8");
}
