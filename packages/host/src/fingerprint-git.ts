import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { type IndexEntry, parseIndex } from "./git-index.js";
import { runGit } from "./git.js";

/**
 * What the repository says about a folder's files. Paths are byte strings (one character
 * per byte, as `latin1` decodes), relative to the folder, so any file name survives as is.
 */
export interface GitFiles {
  /**
   * `path\0<mtime and size>` lines (the fingerprint's line format) from git's index for the
   * files git found unchanged, in path order.
   */
  readonly lines: string[];
  /** Paths to stat: tracked files git found changed or deleted, and untracked ones. */
  readonly stale: readonly string[];
}

/** Per-call config for the user's repository: no fsmonitor hook, stat checks in threads. */
const GIT_CONFIG = ["-c", "core.fsmonitor=false", "-c", "core.preloadIndex=true"];

function splitBytes(output: Buffer): string[] {
  const parts = output.toString("latin1").split("\0");
  parts.pop();
  return parts;
}

interface TrackedIndex {
  /** The folder's path in the repository (`sub/dir/`, or empty at the top), as bytes. */
  readonly prefix: string;
  readonly entries: readonly IndexEntry[];
  /** The index file's own mtime in whole seconds (git's "racy" line). */
  readonly writtenSec: number;
}

/**
 * Reads the index rev-parse pointed at. Null when there is none or it is one this package
 * does not read (a split or sparse index, an unknown version or object format).
 */
async function readTrackedIndex(root: string, where: Buffer): Promise<TrackedIndex | null> {
  // rev-parse printed: the folder's prefix in the repository, the object format, the index.
  const [prefix = "", format = "", indexPath = ""] = where.toString("latin1").split("\n");
  if ((format !== "sha1" && format !== "sha256") || indexPath === "") return null;
  const indexFile = resolve(root, Buffer.from(indexPath, "latin1").toString("utf8"));
  const read = await open(indexFile)
    .then(async (handle) => {
      try {
        return { info: await handle.stat(), buf: await handle.readFile() };
      } finally {
        await handle.close();
      }
    })
    .catch(() => null);
  if (read === null) return null;
  const index = parseIndex(read.buf, format === "sha1" ? 20 : 32, true);
  if (index === null || index.extensions.has("link") || index.extensions.has("sdir")) return null;
  return { prefix, entries: index.entries, writtenSec: Math.floor(read.info.mtimeMs / 1000) };
}

/** The whole seconds of an entry's recorded mtime. */
function entrySeconds(entry: IndexEntry): number {
  const raw = entry.mtimeAndSize;
  const high = (raw.charCodeAt(0) << 8) | raw.charCodeAt(1);
  return high * 0x10000 + ((raw.charCodeAt(2) << 8) | raw.charCodeAt(3));
}

/**
 * Lines for the tracked files under the folder, but `stale` ones and repeated (unmerged)
 * paths. A "racily clean" entry, modified in or after the second the index was written, is
 * added to `stale` instead: git may compare mtimes to the second only, so a touch in that
 * second can leave its recorded nanoseconds behind (the content it checks, not the mtime).
 */
function indexLines(
  index: TrackedIndex,
  stale: Set<string>,
  keep: (path: string) => boolean,
): string[] {
  const lines: string[] = [];
  let previous = "";
  for (const entry of index.entries) {
    if (entry.path === previous || !entry.path.startsWith(index.prefix)) continue;
    previous = entry.path;
    const path = entry.path.slice(index.prefix.length);
    if (stale.has(path) || !keep(path)) continue;
    if (entrySeconds(entry) >= index.writtenSec) stale.add(path);
    else lines.push(`${path}\0${entry.mtimeAndSize}`);
  }
  return lines;
}

/**
 * The files of `root` as its git repository sees them: tracked ones and untracked ones not
 * ignored. A tracked file git finds unchanged has the size and mtime its index records
 * (they equal the file's, or git would have found it changed), so only changed and
 * untracked files are left to stat. Three git calls run side by side, none writing
 * anything: where the index is (read and parsed here meanwhile), `diff-files` (tracked
 * files whose stat data differ, checked in threads) and `ls-files -o` (untracked files,
 * ignores honoured). An index this package does not read leaves every tracked file to
 * stat. Null when `root` is not in a repository (or git fails there).
 */
export async function gitFiles(
  root: string,
  env: Record<string, string>,
  keep: (path: string) => boolean,
): Promise<GitFiles | null> {
  const git = (args: string[]) => runGit([...GIT_CONFIG, ...args], { cwd: root, env });
  try {
    const [index, changed, untracked] = await Promise.all([
      git(["rev-parse", "--show-prefix", "--show-object-format", "--git-path", "index"]).then(
        (where) => readTrackedIndex(root, where.stdout),
      ),
      git(["diff-files", "-z", "--name-only", "--relative", "--ignore-submodules=dirty"]),
      git(["ls-files", "-z", "-o", "--exclude-standard"]),
    ]);
    const stale = new Set([...splitBytes(changed.stdout), ...splitBytes(untracked.stdout)]);
    if (index !== null) {
      const lines = indexLines(index, stale, keep);
      return { lines, stale: [...stale] };
    }
    const tracked = await git(["ls-files", "-z", "--cached"]);
    return { lines: [], stale: [...new Set([...splitBytes(tracked.stdout), ...stale])] };
  } catch {
    return null;
  }
}
