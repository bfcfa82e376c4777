import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { HostError } from "./errors.js";
import { cleanGitEnv, runGit, splitNul } from "./git.js";

/** Options for {@link fingerprint}. */
export interface FingerprintOptions {
  /** The environment git runs with (inherited `GIT_*` variables are dropped); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Root-relative folders left out (default `[".z-engine"]`, the files the engine writes itself). */
  readonly exclude?: readonly string[];
}

/** Folder names a walk of a folder that is not a git repository never enters. */
const WALK_SKIP = new Set([".git"]);
const STAT_WORKERS = 64;

/**
 * Lines `path\0size\0sec.nsec` for tracked files, from the stat data git's index holds,
 * skipping `skip` (files git found changed) and repeated (unmerged) paths.
 */
function indexLines(text: string, skip: ReadonlySet<string>, keep: (path: string) => boolean) {
  const lines: string[] = [];
  let previous = "";
  let pos = 0;
  while (pos < text.length) {
    const nul = text.indexOf("\0", pos);
    if (nul < 0) break;
    const path = text.slice(pos, nul);
    const mtimeAt = text.indexOf("mtime: ", nul) + 7;
    const mtimeEnd = text.indexOf("\n", mtimeAt);
    const sizeAt = text.indexOf("size: ", mtimeEnd) + 6;
    const sizeEnd = text.indexOf("\t", sizeAt);
    pos = text.indexOf("\n", sizeEnd) + 1;
    if (path !== previous && !skip.has(path) && keep(path)) {
      const mtime = text.slice(mtimeAt, mtimeEnd).replace(":", ".");
      lines.push(`${path}\0${text.slice(sizeAt, sizeEnd)}\0${mtime}`);
    }
    previous = path;
    if (pos === 0) break;
  }
  return lines;
}

/**
 * In a git repository: tracked files git finds unchanged keep the size and mtime its index
 * holds (which equal the file's, or git would have found it changed), so only changed and
 * untracked files are stat'ed here. Null when `root` is not in a repository.
 */
async function gitEntries(
  root: string,
  env: Record<string, string>,
  keep: (path: string) => boolean,
): Promise<Entries | null> {
  try {
    const [index, changed] = await Promise.all([
      runGit(["ls-files", "-z", "-c", "--debug"], { cwd: root, env }),
      runGit(["ls-files", "-z", "-m", "-o", "--exclude-standard"], { cwd: root, env }),
    ]);
    const stale = splitNul(changed.stdout);
    const lines = indexLines(index.stdout.toString("utf8"), new Set(stale), keep);
    return { lines, stale: [...new Set(stale)] };
  } catch {
    return null;
  }
}

async function walk(root: string, relative: string, out: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(relative ? join(root, relative) : root, { withFileTypes: true });
  } catch {
    return;
  }
  const dirs: string[] = [];
  for (const entry of entries) {
    if (WALK_SKIP.has(entry.name)) continue;
    const path = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) dirs.push(path);
    else out.push(path);
  }
  await Promise.all(dirs.map((dir) => walk(root, dir, out)));
}

interface Entries {
  /** `path\0size\0sec.nsec` lines already known. */
  readonly lines: string[];
  /** Paths still to stat. */
  readonly stale: readonly string[];
}

async function statInto(root: string, paths: readonly string[], into: string[]) {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        const info = await lstat(join(root, path), { bigint: true });
        const sec = info.mtimeNs / 1_000_000_000n;
        const nsec = info.mtimeNs % 1_000_000_000n;
        into.push(`${path}\0${info.size}\0${sec}.${nsec}`);
      } catch {
        into.push(`${path}\0missing`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_WORKERS, paths.length) }, worker));
}

/**
 * A short digest (16 hex characters) of every file's path, size and modification time
 * under `root`, honouring the repository's ignores: in a git repository the files are the
 * tracked ones and the untracked ones not ignored (git's own stat check says which changed,
 * and only those are stat'ed here; a deleted tracked file counts as "missing"); in a plain
 * folder every file but those in `.git` folders. The `exclude` folders (by default
 * `.z-engine/`) are left out. Rejects with a `HostError` (`fingerprint_failed`) when `root`
 * is not a readable folder.
 */
export async function fingerprint(root: string, options: FingerprintOptions = {}): Promise<string> {
  try {
    if (!(await stat(root)).isDirectory()) throw new Error("not a folder");
  } catch (cause) {
    throw new HostError("fingerprint_failed", `cannot fingerprint ${root}`, { cause });
  }
  const env = cleanGitEnv(options.env ?? process.env);
  const prefixes = (options.exclude ?? [".z-engine"]).map((dir) => `${dir.replace(/\/+$/, "")}/`);
  const keep = (path: string) => !prefixes.some((prefix) => path.startsWith(prefix));
  let entries = await gitEntries(root, env, keep);
  if (entries === null) {
    const paths: string[] = [];
    await walk(root, "", paths);
    entries = { lines: [], stale: paths };
  }
  const lines = entries.lines;
  await statInto(root, entries.stale.filter(keep), lines);
  // Lines start with the path and NUL sorts first, so this is a sort by path.
  lines.sort();
  return createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);
}
