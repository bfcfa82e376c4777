import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { HostError } from "./errors.js";
import { gitFiles } from "./fingerprint-git.js";
import { cleanGitEnv } from "./git.js";

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

/** Lines (see {@link statLine}) for each path, stat'ed in parallel, in no particular order. */
async function statLines(root: Buffer, paths: readonly string[]): Promise<string[]> {
  const lines: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        const info = await lstat(Buffer.concat([root, bytes(`/${path}`)]), { bigint: true });
        // Whole seconds rounded down (before 1970 too) and the nanoseconds past them.
        const nsec = ((info.mtimeNs % BILLION) + BILLION) % BILLION;
        const sec = Number(((info.mtimeNs - nsec) / BILLION) & 0xffffffffn);
        const size = Number(info.size & 0xffffffffn);
        lines.push(statLine(path, { sec, nsec: Number(nsec), size }));
      } catch {
        lines.push(statLine(path, null));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STAT_WORKERS, paths.length) }, worker));
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
 * tracked ones and the untracked ones not ignored (git's own stat check says which differ
 * from its index, and only those are stat'ed here; a deleted tracked file counts as
 * "missing"); in a plain folder every file but those in `.git` folders. The digest depends
 * on the files on disk only, not on the state of git's index (refreshed, staged, split):
 * it equals the digest of stat'ing every one of those files (sizes and seconds taken to 32
 * bits, as git keeps them). The `exclude` folders (by default `.z-engine/`) are left out.
 * Never writes anything. Rejects with a `HostError` (`fingerprint_failed`) when `root` is
 * not a readable folder.
 */
export async function fingerprint(root: string, options: FingerprintOptions = {}): Promise<string> {
  try {
    if (!(await stat(root)).isDirectory()) throw new Error("not a folder");
  } catch (cause) {
    throw new HostError("fingerprint_failed", `cannot fingerprint ${root}`, { cause });
  }
  const env = cleanGitEnv(options.env ?? process.env);
  // Paths are byte strings throughout (any file name survives, and sorting is by bytes).
  const prefixes = (options.exclude ?? [".z-engine"]).map((dir) =>
    Buffer.from(`${dir.replace(/\/+$/, "")}/`).toString("latin1"),
  );
  const keep = (path: string) => !prefixes.some((prefix) => path.startsWith(prefix));
  const rootBytes = Buffer.from(root);
  let files = await gitFiles(root, env, keep);
  if (files === null) {
    const paths: string[] = [];
    await walk(rootBytes, "", paths);
    files = { lines: [], stale: paths };
  }
  const lines = mergeLines(files.lines, await statLines(rootBytes, files.stale.filter(keep)));
  return createHash("sha256").update(lines.join("\n"), "latin1").digest("hex").slice(0, 16);
}
