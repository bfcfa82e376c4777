import { constants, type Stats } from "node:fs";
import { type FileHandle, open, readlink, realpath, stat } from "node:fs/promises";

const { O_NOCTTY, O_NOFOLLOW, O_NONBLOCK, O_RDONLY } = constants;

/** The bytes read, and whether the file holds more than were read. */
export interface VerifiedRead {
  readonly bytes: Buffer;
  readonly more: boolean;
}

const sameFile = (a: Stats, b: Stats) => a.dev === b.dev && a.ino === b.ino;

/** Whether the open file is still the file at `real` (found by its path again). */
async function stillThere(real: string, handle: FileHandle, opened: Stats): Promise<boolean> {
  // Linux names an open file's real path in /proc: one call instead of resolving it again.
  if (process.platform === "linux") {
    const named = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (named !== undefined) return named === real;
  }
  const now = await realpath(real).catch(() => undefined);
  const there = now === real ? await stat(real).catch(() => undefined) : undefined;
  return there !== undefined && sameFile(there, opened);
}

/** Why the open file is not the one that was admitted at `real`, or undefined when it is. */
async function changed(
  real: string,
  admitted: Stats,
  handle: FileHandle,
): Promise<string | undefined> {
  const opened = await handle.stat();
  if (!opened.isFile()) return "is no longer a regular file";
  if (!sameFile(admitted, opened)) return "was replaced while it was opened";
  if (opened.nlink > 1 && admitted.nlink <= 1) return "gained a hard link while it was opened";
  // A folder on the way swapped for a link between the check and the open: the open file
  // would be somewhere else. It must still be the file at its real path.
  if (!(await stillThere(real, handle, opened))) return "moved while it was opened";
  return undefined;
}

async function readUpTo(handle: FileHandle, size: number, maxBytes: number): Promise<VerifiedRead> {
  // Sized for the file (a byte more shows it grew), at most 64 KiB a read.
  const buffer = Buffer.allocUnsafe(Math.min(maxBytes, size, 64 * 1024) + 1);
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= maxBytes) {
    const want = Math.min(buffer.length, maxBytes + 1 - total);
    const { bytesRead } = await handle.read(buffer, 0, want, null);
    if (bytesRead === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
    total += bytesRead;
  }
  const all = Buffer.concat(chunks);
  return all.length > maxBytes
    ? { bytes: all.subarray(0, maxBytes), more: true }
    : { bytes: all, more: false };
}

/**
 * Reads at most `maxBytes` of the regular file admitted at `real` (a real path, with
 * `admitted` its stat): opened with `O_NOFOLLOW | O_NONBLOCK | O_NOCTTY`, so no link is
 * followed and nothing blocks, then checked to be the same file, still at `real`. Resolves to
 * what was read, or to the end of a sentence saying why nothing was ("was replaced while it
 * was opened"). Never rejects.
 */
export async function readVerified(
  real: string,
  admitted: Stats,
  maxBytes: number,
): Promise<VerifiedRead | string> {
  let handle: FileHandle;
  try {
    handle = await open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    const c = (error as NodeJS.ErrnoException).code;
    if (c === "ELOOP") return "became a symbolic link while it was opened";
    if (c === "ENOENT") return "was removed while it was opened";
    return `cannot be read (${c ?? String(error)})`;
  }
  try {
    const why = await changed(real, admitted, handle);
    if (why) return why;
    return await readUpTo(handle, admitted.size, maxBytes);
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  } finally {
    await handle.close().catch(() => {});
  }
}
