import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";

const { O_NOCTTY, O_NOFOLLOW, O_NONBLOCK, O_RDONLY } = constants;

/**
 * Whether a listed path can be mapped by what it is: a regular file, not a link, with a
 * single hard link. The engine hands the map real paths the project-files door admitted; what
 * changed since (a link put in its place, a FIFO, a device, a new hard link) is left out.
 */
function mappable(info: Stats): boolean {
  return info.isFile() && info.nlink === 1;
}

/** The size and mtime of a mappable file at `full`, or null (missing, a link, not mappable). */
export function mapFileStamp(full: string): { size: number; mtimeMs: number } | null {
  try {
    const info = lstatSync(full);
    return mappable(info) ? { size: info.size, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/**
 * Reads at most `maxBytes + 1` bytes of the mappable file at `full` (so a larger file shows as
 * larger without being read whole): opened with `O_NOFOLLOW | O_NONBLOCK | O_NOCTTY`, so no
 * link is followed and a FIFO or device put there cannot block or stream for ever, then
 * checked on the open file (regular, one link) and against `full` (still the same file at the
 * same real path: a folder on the way swapped for a link is caught). Null when any of that
 * fails. Never throws.
 */
export function readMapFile(
  full: string,
  maxBytes: number,
): { bytes: Buffer; size: number; mtimeMs: number } | null {
  let fd: number;
  try {
    fd = openSync(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch {
    return null;
  }
  try {
    const info = fstatSync(fd);
    if (!mappable(info) || realpathSync.native(full) !== full) return null;
    const there = statSync(full);
    if (there.dev !== info.dev || there.ino !== info.ino) return null;
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, null);
      if (n === 0) break;
      read += n;
    }
    return { bytes: buffer.subarray(0, read), size: info.size, mtimeMs: info.mtimeMs };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
