import {
  type BigIntStats,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { PRIVATE_DIR, PRIVATE_FILE } from "../private-modes.js";
import { dirname, join } from "node:path";
import { HostError } from "../errors.js";
import { type Entry, indexBytes, MODES, writeTree } from "./git-formats.js";
import { PackWriter } from "./pack-writer.js";
import { CHECKPOINT_REF, type ShadowRepo } from "./shadow-repo.js";

/**
 * A first snapshot this small is written in process; a larger one goes through git, whose
 * processes hash in parallel and off the session's thread.
 */
export const IN_PROCESS_LIMITS = { maxFiles: 512, maxBytes: 4 * 1024 * 1024 };

/** Writes all of `data` (a write may take less than it was given). */
function writeAll(fd: number, data: Buffer): void {
  for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
}

/** One `.lock` file, taken the way git takes it (created exclusively), or null when held. */
function takeLock(file: string): { fd: number; path: string } | null {
  const path = `${file}.lock`;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR });
    return { fd: openSync(path, "wx", PRIVATE_FILE), path };
  } catch {
    return null;
  }
}

function releaseLock(lock: { fd: number; path: string }, commitTo?: string): void {
  closeSync(lock.fd);
  if (commitTo) renameSync(lock.path, commitTo);
  else rmSync(lock.path, { force: true });
}

/** The index mode of what `lstat` saw (git's rule: links, else a file with or without x). */
function modeOf(stat: BigIntStats): Entry["mode"] | null {
  if (stat.isSymbolicLink()) return MODES.link;
  if (!stat.isFile()) return null;
  return (stat.mode & 0o100n) !== 0n ? MODES.executable : MODES.file;
}

/**
 * True when a folder on the way to `path` is (now) a symbolic link: what lies beyond it is
 * not the project's, and git would not read through it either. `checked` caches folders.
 */
function throughLink(root: string, path: string, checked: Map<string, boolean>): boolean {
  let at = path.indexOf("/");
  while (at >= 0) {
    const folder = path.slice(0, at);
    let link = checked.get(folder);
    if (link === undefined) {
      try {
        link = !lstatSync(join(root, folder)).isDirectory();
      } catch {
        link = true;
      }
      checked.set(folder, link);
    }
    if (link) return true;
    at = path.indexOf("/", at + 1);
  }
  return false;
}

/** Hashes and stores the listed files; null when there are too many or too many bytes. */
function storeBlobs(
  shadow: ShadowRepo,
  paths: readonly string[],
  pack: PackWriter,
): Entry[] | null {
  if (paths.length > IN_PROCESS_LIMITS.maxFiles) return null;
  const found: { path: string; stat: BigIntStats; mode: Entry["mode"] }[] = [];
  const folders = new Map<string, boolean>();
  let bytes = 0n;
  for (const path of paths) {
    // A path git could not give us as UTF-8 goes through git, which keeps its bytes.
    if (path.includes("\uFFFD")) return null;
    // Swapped for a link since it was listed: left out, as git leaves it.
    if (throughLink(shadow.projectRoot, path, folders)) continue;
    let stat: BigIntStats;
    try {
      stat = lstatSync(join(shadow.projectRoot, path), { bigint: true });
    } catch {
      continue; // Gone since it was listed: not in the snapshot, as git would leave it.
    }
    const mode = modeOf(stat);
    if (!mode) continue;
    bytes += stat.size;
    if (bytes > BigInt(IN_PROCESS_LIMITS.maxBytes)) return null;
    found.push({ path, stat, mode });
  }
  const entries: Entry[] = [];
  for (const { path, stat, mode } of found) {
    const file = join(shadow.projectRoot, path);
    let data: Buffer;
    try {
      data = mode === MODES.link ? readlinkSync(file, { encoding: "buffer" }) : readFileSync(file);
    } catch {
      continue;
    }
    entries.push({ path: Buffer.from(path), mode, oid: pack.add("blob", data), stat });
  }
  return entries.sort((a, b) => Buffer.compare(a.path, b.path));
}

function signature(now: Date): string {
  const offset = -now.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const minutes = String(Math.abs(offset) % 60).padStart(2, "0");
  const when = `${Math.floor(now.getTime() / 1000)} ${sign}${hours}${minutes}`;
  return `Z Engine <checkpoints@z-engine.invalid> ${when}`;
}

/**
 * Moves the checkpoint ref to `commit` only if it still points at `parent`, under git's own
 * lock file. Rejects with a `HostError` (`gitFailed`) when the lock is held or the ref moved.
 */
async function moveRef(shadow: ShadowRepo, commit: string, parent: string | null): Promise<void> {
  const refFile = join(shadow.gitDir, CHECKPOINT_REF);
  const lock = takeLock(refFile);
  if (!lock) throw new HostError("gitFailed", `${CHECKPOINT_REF} is locked by another process`);
  try {
    const current = await shadow.readRef(CHECKPOINT_REF);
    if (current !== parent) {
      throw new HostError("gitFailed", `${CHECKPOINT_REF} moved (now ${current ?? "none"})`);
    }
    writeAll(lock.fd, Buffer.from(`${commit}\n`));
  } catch (error) {
    releaseLock(lock);
    throw error;
  }
  releaseLock(lock, refFile);
}

/**
 * The first snapshot of a project, written without a process (issue 18: on a small project
 * the commit script's five processes were most of the first tool's wait): each listed file
 * is hashed, then its trees and the commit, all stored as one pack, then the index (so git later finds the
 * files unchanged by their stat data) and the commit, and the ref moves as `update-ref`
 * would move it. Resolves to null, having changed nothing git would read, when it does not
 * apply: an index exists, the repository is not sha1, another process holds the index's
 * lock, or the files are too many or too large ({@link IN_PROCESS_LIMITS}); the caller then
 * lets git do it. Resolves to the commit and how many files it holds. Rejects with a
 * `HostError` when the ref moved or is locked.
 */
export async function commitFirstSnapshot(
  shadow: ShadowRepo,
  paths: readonly string[],
  message: string,
  parent: string | null,
): Promise<{ commit: string; files: number } | null> {
  try {
    return await writeFirstSnapshot(shadow, paths, message, parent);
  } catch (error) {
    if (error instanceof HostError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new HostError("gitFailed", `the first snapshot could not be written: ${reason}`, {
      cause: error,
    });
  }
}

async function writeFirstSnapshot(
  shadow: ShadowRepo,
  paths: readonly string[],
  message: string,
  parent: string | null,
): Promise<{ commit: string; files: number } | null> {
  if (shadow.hashLength !== 20 || existsSync(shadow.indexFile)) return null;
  if (existsSync(join(shadow.gitDir, "reftable"))) return null;
  const lock = takeLock(shadow.indexFile);
  if (!lock) return null;
  let made: { commit: string; files: number } | null = null;
  try {
    const pack = new PackWriter();
    const entries = existsSync(shadow.indexFile) ? null : storeBlobs(shadow, paths, pack);
    if (entries) {
      const tree = writeTree(pack, entries, 0).toString("hex");
      const who = signature(new Date());
      const head = `tree ${tree}\n${parent ? `parent ${parent}\n` : ""}author ${who}\ncommitter ${who}\n\n`;
      const commit = pack.add("commit", Buffer.from(head + message)).toString("hex");
      // The objects first: the index and the ref name them.
      pack.write(join(shadow.gitDir, "objects"));
      writeAll(lock.fd, indexBytes(entries));
      made = { commit, files: entries.length };
    }
  } catch (error) {
    releaseLock(lock);
    throw error;
  }
  if (!made) {
    releaseLock(lock);
    return null;
  }
  releaseLock(lock, shadow.indexFile);
  await moveRef(shadow, made.commit, parent);
  return made;
}
