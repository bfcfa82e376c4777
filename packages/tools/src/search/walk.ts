import { lstat, readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { type IgnoreLevel, isIgnored, parseIgnoreFile } from "./ignore-rules.js";

/** A file the walk found: its path relative to the search folder (`/`-separated) and absolute. */
export interface WalkedFile {
  readonly rel: string;
  readonly abs: string;
}

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

async function readIgnore(path: string): Promise<string | null> {
  return readFile(path, "utf8").catch(() => null);
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** The git repository root containing `folder`, or null. */
async function repoRoot(folder: string): Promise<string | null> {
  for (let current = folder; ; current = dirname(current)) {
    if (await exists(join(current, ".git"))) return current;
    if (dirname(current) === current) return null;
  }
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

async function levelsIn(folder: string, base: string, inRepo: boolean): Promise<IgnoreLevel[]> {
  const levels: IgnoreLevel[] = [];
  for (const name of IGNORE_FILES) {
    if (name === ".gitignore" && !inRepo) continue;
    const text = await readIgnore(join(folder, name));
    if (text !== null) levels.push({ base, rules: parseIgnoreFile(text) });
  }
  return levels;
}

/** Ignore levels from the repository root (or the search folder) down to the search folder. */
async function initialLevels(
  searchDir: string,
  top: string,
  inRepo: boolean,
): Promise<IgnoreLevel[]> {
  const levels: IgnoreLevel[] = [];
  if (inRepo) {
    const exclude = await readIgnore(join(top, ".git", "info", "exclude"));
    if (exclude !== null) levels.push({ base: "", rules: parseIgnoreFile(exclude) });
  }
  const chain = toPosix(relative(top, searchDir))
    .split("/")
    .filter((part) => part !== "");
  for (let depth = 0; depth <= chain.length; depth++) {
    const base = chain.slice(0, depth).join("/");
    levels.push(...(await levelsIn(join(top, ...chain.slice(0, depth)), base, inRepo)));
  }
  return levels;
}

function included(
  levels: readonly IgnoreLevel[],
  prefix: string,
  rel: string,
  name: string,
  isDir: boolean,
): boolean {
  if (name.startsWith(".")) return false;
  return !isIgnored(levels, prefix === "" ? rel : `${prefix}/${rel}`, isDir);
}

/**
 * Lists the files under `searchDir` as ripgrep would by default: hidden entries and `.git`
 * skipped, symlinks not followed, .gitignore (inside a git repository, from its root down,
 * plus .git/info/exclude), .ignore and .rgignore honoured. Unreadable folders are skipped.
 * Order is unspecified. Aborting stops the walk early (the list is then partial).
 *
 * `override` is ripgrep's `--glob`: an entry it matches is taken even when hidden or
 * ignored; a file it does not match is left out; a folder it does not match follows the
 * usual rules.
 */
export async function walkFiles(
  searchDir: string,
  signal: AbortSignal,
  override?: RegExp,
): Promise<WalkedFile[]> {
  const root = await repoRoot(searchDir);
  const top = root ?? searchDir;
  const prefix = toPosix(relative(top, searchDir));
  const files: WalkedFile[] = [];
  const visit = async (folder: string, rel: string, levels: IgnoreLevel[]): Promise<void> => {
    if (signal.aborted) return;
    const topRel = [prefix, rel].filter((part) => part !== "").join("/");
    const here =
      rel === "" ? levels : [...levels, ...(await levelsIn(folder, topRel, root !== null))];
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    const folders: Promise<void>[] = [];
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const isDir = entry.isDirectory();
      if (!isDir && !entry.isFile()) continue;
      const whitelisted = override?.test(childRel) ?? false;
      if (override && !whitelisted && !isDir) continue;
      if (!whitelisted && !included(here, prefix, childRel, entry.name, isDir)) continue;
      if (isDir) folders.push(visit(join(folder, entry.name), childRel, here));
      else files.push({ rel: childRel, abs: join(folder, entry.name) });
    }
    await Promise.all(folders);
  };
  await visit(searchDir, "", await initialLevels(searchDir, top, root !== null));
  return files;
}
