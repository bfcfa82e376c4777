import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { lstatSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { HostError } from "./errors.js";
import { gitFiles } from "./fingerprint-git.js";

/** Options for {@link fingerprint}. */
export interface FingerprintOptions {
  /** The environment git runs with (inherited `GIT_*` variables are dropped); default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Root-relative folders left out (default `[".z-engine"]`, the files the engine writes itself). */
  readonly exclude?: readonly string[];
  /**
   * Git's listing taking longer is killed and the fingerprint rejects (default 2 minutes;
   * git blocks for ever opening a FIFO where it reads an ignore file).
   */
  readonly gitTimeLimitMs?: number;
  /** When it aborts, git's listing is killed and the fingerprint rejects. */
  readonly signal?: AbortSignal;
}

/** Folder names a walk of a folder that is not a git repository never enters. */
const WALK_SKIP = new Set([".git"]);
const STAT_SLICE = 2_000;
const BILLION = 1_000_000_000n;

/** Byte string (one character per byte) → the bytes it stands for. */
const bytes = (text: string) => Buffer.from(text, "latin1");

/** Every file under `root` but those in `.git` folders, as byte strings. */
async function walk(root: Buffer, relative: string, out: string[]): Promise<void> {
  let entries: Dirent<Buffer>[];
  try {
    const dir = relative ? Buffer.concat([root, bytes(`/${relative}`)]) : root;
    entries = await readdir(dir, { withFileTypes: true, encoding: "buffer" });
  } catch {
    return;
  }
  const dirs: string[] = [];
  for (const entry of entries) {
    const name = entry.name.toString("latin1");
    if (WALK_SKIP.has(name)) continue;
    const path = relative ? `${relative}/${name}` : name;
    if (entry.isDirectory()) dirs.push(path);
    else out.push(path);
  }
  await Promise.all(dirs.map((dir) => walk(root, dir, out)));
}

/**
 * A file's line: its path, NUL, then its mtime seconds, nanoseconds and size as three
 * big-endian 32-bit numbers (the layout git's index stores them in, so index entries need
 * no conversion; each within 0 and 2^32-1); `null` for a file that is gone (no real file
 * has 2^32-1 nanoseconds).
 */
function statLine(path: string, stat: { sec: number; nsec: number; size: number } | null) {
  const raw = Buffer.alloc(12, 0xff);
  if (stat) {
    raw.writeUInt32BE(stat.sec, 0);
    raw.writeUInt32BE(stat.nsec, 4);
    raw.writeUInt32BE(stat.size, 8);
  }
  return `${path}\0${raw.toString("latin1")}`;
}

/** The root folder as a string and as its bytes. */
interface Root {
  readonly text: string;
  readonly bytes: Buffer;
}

const ASCII = /^[\x20-\x7e]*$/;

/** The line of one file, stat'ed now (see {@link statLine}). */
function statPath(root: Root, path: string): string {
  // Most paths are ASCII, which a string path passes as is; others go as their bytes.
  const full = ASCII.test(path)
    ? `${root.text}/${path}`
    : Buffer.concat([root.bytes, bytes(`/${path}`)]);
  const info = lstatSync(full, { bigint: true, throwIfNoEntry: false });
  if (info === undefined) return statLine(path, null);
  // Whole seconds rounded down (before 1970 too) and the nanoseconds past them.
  const nsec = ((info.mtimeNs % BILLION) + BILLION) % BILLION;
  const sec = Number(((info.mtimeNs - nsec) / BILLION) & 0xffffffffn);
  return statLine(path, { sec, nsec: Number(nsec), size: Number(info.size & 0xffffffffn) });
}

/**
 * Lines (see {@link statLine}) for each path, in the order given. `lstat` runs
 * synchronously (several times faster than through the thread pool), a slice at a time
 * with the event loop let through between slices.
 */
async function statLines(root: Root, paths: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  for (let start = 0; start < paths.length; start += STAT_SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(paths.length, start + STAT_SLICE);
    for (let i = start; i < end; i++) {
      try {
        lines.push(statPath(root, paths[i]!));
      } catch {
        lines.push(statLine(paths[i]!, null));
      }
    }
  }
  return lines;
}

/**
 * `sorted` and `extra` lines in one path order. Lines start with the path and NUL sorts
 * first, so comparing lines compares paths; `sorted` (the index's, usually nearly all of
 * them) is already in order, so each extra line finds its place by binary search.
 */
function mergeLines(sorted: readonly string[], extra: string[]): string[] {
  extra.sort();
  if (sorted.length === 0) return extra;
  const out: string[] = [];
  let from = 0;
  for (const line of extra) {
    let low = from;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < line) low = middle + 1;
      else high = middle;
    }
    for (let i = from; i < low; i++) out.push(sorted[i]!);
    out.push(line);
    from = low;
  }
  for (let i = from; i < sorted.length; i++) out.push(sorted[i]!);
  return out;
}

/**
 * A short digest (16 hex characters) of every file's path, size and modification time
 * under `root`, honouring the repository's ignores: in a git repository the files are the
 * tracked ones (a deleted tracked file counts as "missing") and the untracked ones not
 * ignored, as `git ls-files` lists them; in a plain folder every file but those in `.git`
 * folders. Every file is stat'ed here, so the digest depends on the files on disk only,
 * never on the state of git's index (refreshed, staged, split, racily clean): it equals the
 * digest of a walk over the same files (sizes and seconds taken to 32 bits). Git runs
 * neutralised (see `safeGitCommand`) and reads no file's content. The `exclude` folders (by
 * default `.z-engine/`) are left out. Never writes anything. Rejects with a `HostError`
 * (`fingerprintFailed`) when `root` is not a readable folder, or git's listing did not
 * finish within `gitTimeLimitMs` or `signal` aborted.
 */
export async function fingerprint(root: string, options: FingerprintOptions = {}): Promise<string> {
  try {
    if (!(await stat(root)).isDirectory()) throw new Error("not a folder");
  } catch (cause) {
    throw new HostError("fingerprintFailed", `cannot fingerprint ${root}`, { cause });
  }
  // Paths are byte strings throughout (any file name survives, and sorting is by bytes).
  const prefixes = (options.exclude ?? [".z-engine"]).map((dir) =>
    Buffer.from(`${dir.replace(/\/+$/, "")}/`).toString("latin1"),
  );
  const keep = (path: string) => !prefixes.some((prefix) => path.startsWith(prefix));
  const base: Root = { text: root, bytes: Buffer.from(root) };
  const env = options.env ?? process.env;
  const files = await gitFiles(root, env, options.gitTimeLimitMs, options.signal).catch(
    (cause: unknown) => {
      throw new HostError("fingerprintFailed", `cannot list the files of ${root}`, { cause });
    },
  );
  let sorted: string[] = [];
  let extra: string[];
  if (files === null) {
    extra = [];
    await walk(base.bytes, "", extra);
  } else {
    sorted = await statLines(base, files.tracked.filter(keep));
    extra = files.untracked;
  }
  const lines = mergeLines(sorted, await statLines(base, extra.filter(keep)));
  return createHash("sha256").update(lines.join("\n"), "latin1").digest("hex").slice(0, 16);
}
