import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** A folder's sub-folders, for the folder picker: names only, never a file or its contents. */
export interface FolderListing {
  readonly path: string;
  /** The folder above (null at the root). */
  readonly parent: string | null;
  readonly folders: readonly { readonly name: string; readonly path: string }[];
  /** Sub-folders left out past the limit. */
  readonly more: number;
}

/** What the picker lists at most per folder. */
const MAX_FOLDERS = 500;

/** `~` and `~/x` as the home folder; a relative path against `base`. */
export function expandFolder(input: string, base: string): string {
  const text = input.trim();
  if (text === "~") return homedir();
  if (text.startsWith("~/")) return join(homedir(), text.slice(2));
  return isAbsolute(text) ? resolve(text) : resolve(base, text);
}

/**
 * Why a folder cannot hold a session, in words (it does not exist, it is a file, it cannot
 * be opened), or undefined when it can.
 */
export async function folderProblem(path: string): Promise<string | undefined> {
  try {
    const info = await stat(path);
    if (!info.isDirectory()) return `${path} is a file, not a folder`;
    await readdir(path);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `that folder does not exist: ${path}`;
    if (code === "EACCES" || code === "EPERM") return `you may not open ${path}`;
    if (code === "ENOTDIR") return `${path} is not a folder (a part of it is a file)`;
    return `${path} cannot be opened (${code ?? "unknown error"})`;
  }
}

/**
 * Lists the sub-folders of `path` (hidden ones only when asked), sorted by name, following
 * links to folders. Rejects with the reason in words when the folder cannot be listed.
 */
export async function listFolders(path: string, hidden = false): Promise<FolderListing> {
  const problem = await folderProblem(path);
  if (problem) throw new Error(problem);
  const entries = await readdir(path, { withFileTypes: true });
  const names: string[] = [];
  for (const entry of entries) {
    if (!hidden && entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) names.push(entry.name);
    else if (entry.isSymbolicLink()) {
      const target = await stat(join(path, entry.name)).catch(() => null);
      if (target?.isDirectory()) names.push(entry.name);
    }
  }
  names.sort((a, b) => a.localeCompare(b));
  const parent = dirname(path);
  return {
    path,
    parent: parent === path ? null : parent,
    folders: names.slice(0, MAX_FOLDERS).map((name) => ({ name, path: join(path, name) })),
    more: Math.max(0, names.length - MAX_FOLDERS),
  };
}
