import { isAbsolute, resolve } from "node:path";
import { isDynamicWord } from "./shell-words.js";

/** A path a call touches; undefined when it is known only at run time (`> $OUT`). */
export type MaybePath = string | undefined;

/** A folder path without a trailing separator ("/" stays "/"). */
export function normalizeRoot(root: string): string {
  const r = resolve(root);
  return r.length > 1 && r.endsWith("/") ? r.slice(0, -1) : r;
}

/** True when `path` is `root` or inside it (compared as the file system does: case-sensitive). */
export function isWithin(path: string, root: string): boolean {
  if (root === "/") return path.startsWith("/");
  return path === root || (path.startsWith(root) && path.charCodeAt(root.length) === 47);
}

/** True when `path` is inside any of `roots`. */
export function isWithinAny(path: string, roots: readonly string[]): boolean {
  for (const root of roots) if (isWithin(path, root)) return true;
  return false;
}

/** `path` relative to `root` ("" for the root itself), or undefined when outside it. */
export function relativeTo(path: string, root: string): string | undefined {
  if (root === "/") return path.startsWith("/") ? path.slice(1) : undefined;
  if (path === root) return "";
  if (path.startsWith(root) && path.charCodeAt(root.length) === 47)
    return path.slice(root.length + 1);
  return undefined;
}

/**
 * Resolves a word a command names as a file, against `cwd`, the way the shell would see it:
 * `~` and `~/x` become the home folder, `..` is folded. Undefined when the word depends on
 * run-time expansion (`$HOME`, `$(...)`) or names another user's home (`~bob`), so its place
 * is unknown. Symlinks are not followed (a pure function cannot).
 */
export function resolveWord(word: string, cwd: string, home: string): string | undefined {
  if (isDynamicWord(word)) return undefined;
  if (word === "~") return normalizeRoot(home);
  if (word.startsWith("~/")) return resolve(home, word.slice(2));
  if (word.startsWith("~")) return undefined;
  if (isAbsolute(word)) return isPlain(word) ? word : resolve(word);
  if (isPlain(word) && !word.startsWith(".")) return cwd === "/" ? `/${word}` : `${cwd}/${word}`;
  return resolve(cwd, word);
}

/** True when a path has no `.`/`..` segment, doubled or trailing slash (so it needs no folding). */
function isPlain(p: string): boolean {
  return !/(^|\/)\.{1,2}(\/|$)|\/\/|.\/$/.test(p);
}

/** The parent folder of an absolute path ("/" for "/"). */
export function parentOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}
