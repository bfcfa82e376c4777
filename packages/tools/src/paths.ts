import { realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** An input path made absolute: `~` expanded, relative paths taken from `cwd`. Never throws. */
export function absolutePath(input: string, cwd: string): string {
  let path = input;
  if (path === "~") path = homedir();
  else if (path.startsWith("~/")) path = join(homedir(), path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/**
 * The real absolute path: `..`, `~` and symlinks resolved. For a path that does not exist
 * yet, the deepest existing folder is resolved and the rest appended. Never rejects.
 */
export async function realPath(input: string, cwd: string): Promise<string> {
  const path = absolutePath(input, cwd);
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await realpath(current);
      return rest.length === 0 ? real : join(real, ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(basename(current));
      current = parent;
    }
  }
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
