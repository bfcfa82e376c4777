import { readlink, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** How many symlinks {@link realPath} follows before it gives up (Linux's own limit). */
export const MAX_SYMLINK_HOPS = 40;

/** An input path made absolute: `~` expanded, relative paths taken from `cwd`. Never throws. */
export function absolutePath(input: string, cwd: string): string {
  let path = input;
  if (path === "~") path = homedir();
  else if (path.startsWith("~/")) path = join(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

interface Budget {
  hops: number;
}

/** `path` (absolute, normalised) with every symlink followed, dangling ones included. */
async function followLinks(path: string, budget: Budget): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // Missing, or a dangling symlink somewhere along the path: resolve it part by part.
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const located = join(await followLinks(parent, budget), basename(path));
  const target = await readlink(located).catch(() => null);
  if (target === null || budget.hops <= 0) return located;
  budget.hops--;
  return followLinks(resolve(dirname(located), target), budget);
}

/**
 * The real absolute path: `..`, `~` and symlinks resolved, dangling symlinks too (their link
 * text is followed, up to {@link MAX_SYMLINK_HOPS} links: `keys.txt -> ~/.ssh/authorized_keys`
 * resolves to the latter even when it does not exist). For a path that does not exist yet, the
 * deepest existing folder is resolved and the rest appended. A symlink loop gives the path of
 * a link in the loop. Never rejects.
 */
export async function realPath(input: string, cwd: string): Promise<string> {
  return followLinks(absolutePath(input, cwd), { hops: MAX_SYMLINK_HOPS });
}

/**
 * Where the input path itself is: its folders resolved as {@link realPath} does, its last
 * part not followed (for a symlink, the link's own location). Never rejects.
 */
export async function linkPath(input: string, cwd: string): Promise<string> {
  const path = absolutePath(input, cwd);
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await followLinks(parent, { hops: MAX_SYMLINK_HOPS }), basename(path));
}

/** `path` relative to `root` when inside it, else the absolute path. For titles. */
export function displayPath(path: string, root: string): string {
  const rel = relative(root, path);
  if (rel === "") return ".";
  if (rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) return path;
  return rel;
}

/** A tool input path as a title shows it: relative to the root when inside it. Never throws. */
export function titlePath(input: string, cwd: string, root: string): string {
  return displayPath(absolutePath(input, cwd), root);
}
