import type { FileHandle } from "node:fs/promises";
import type { EditCheck, FileStamp } from "./file-tracker.js";
import { createRegular, openRegular } from "./regular-file.js";
import { changedText, isEmptyChange, type TextChange, wholePairs } from "./text-change.js";
import { bomOf, encodeBody, encodeText, type TextFile } from "./text-file.js";

/** A text file as read: its bytes, and the text and format they decode to. */
export interface ReadText extends TextFile {
  readonly bytes: Buffer;
}

/** New content for a file: `chunks` replace its bytes from `offset` on; `length`: the new size. */
export interface ByteSplice {
  readonly offset: number;
  readonly chunks: readonly Buffer[];
  readonly length: number;
}

function countBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** Bytes `text` (a piece of a decoded UTF-8 or Latin-1 file) takes on disk, BOM excluded. */
function storedLength(text: string, file: ReadText): number {
  const breaks = file.format.crlf ? countBreaks(text) : 0;
  if (file.format.encoding === "latin1") return text.length + breaks;
  return Buffer.byteLength(text, "utf8") + breaks;
}

/** The whole file rewritten: what a UTF-16 file, or a change that changes nothing, gets. */
function wholeFile(file: ReadText, change: TextChange): ByteSplice {
  const bytes = encodeText(changedText(file.text, change), file.format);
  return { offset: 0, chunks: [bytes], length: bytes.length };
}

/**
 * The bytes to write to make the change to `file`, in the file's own format: only from the
 * change on, the unchanged end copied from the bytes read. Exact because a UTF-8 or Latin-1
 * file's bytes are the encoding of its decoded text, character by character (CRLF included),
 * and the change is first widened to whole surrogate pairs. UTF-16 files, and an empty change
 * (so the write still touches the file), are rewritten whole. Never throws.
 */
export function spliceFor(file: ReadText, change: TextChange): ByteSplice {
  if (file.format.encoding === "utf16le" || isEmptyChange(change)) return wholeFile(file, change);
  const { start, end, insert } = wholePairs(file.text, change);
  const offset = bomOf(file.format).length + storedLength(file.text.slice(0, start), file);
  const tailBytes = storedLength(file.text.slice(end), file);
  const middle = encodeBody(insert, file.format);
  const tail = file.bytes.subarray(file.bytes.length - tailBytes);
  return { offset, chunks: [middle, tail], length: offset + middle.length + tail.length };
}

/** The part of a file handle {@link writeAll} uses. */
export type VectorWriter = Pick<FileHandle, "writev">;

/**
 * Writes the chunks at the splice's offset: in one system call when the OS takes it all
 * (each write of a file is a journal update of its time on ext4, slow when the disk is busy),
 * else the rest again until done. Rejects on an I/O error, or a write that makes no progress.
 */
export async function writeAll(handle: VectorWriter, splice: ByteSplice): Promise<void> {
  let chunks = splice.chunks.filter((chunk) => chunk.length > 0);
  let position = splice.offset;
  while (chunks.length > 0) {
    let { bytesWritten } = await handle.writev(chunks, position);
    if (bytesWritten <= 0) throw new Error("a write of the file made no progress");
    position += bytesWritten;
    const rest: Buffer[] = [];
    for (const chunk of chunks) {
      if (bytesWritten >= chunk.length) bytesWritten -= chunk.length;
      else {
        rest.push(chunk.subarray(bytesWritten));
        bytesWritten = 0;
      }
    }
    chunks = rest;
  }
}

/** What a splice write gives: the file's new stamp, or why nothing was written. */
export type SpliceWrite =
  | { readonly ok: true; readonly stamp: FileStamp }
  | { readonly ok: false; readonly reason: string };

/**
 * Writes a splice into an existing file in place (the unchanged start is not rewritten, and
 * no truncate-to-zero: on ext4 that alone costs several times the write), then cuts the file
 * to its new length. The file is opened as {@link openRegular} does: a path that became a
 * symlink, a FIFO or a device since it was resolved is refused. `check` sees the open file's
 * stamp first; when it refuses, nothing is written. Rejects on an I/O error (a read-only
 * file, a full disk).
 */
export async function writeSplice(
  path: string,
  splice: ByteSplice,
  check: (current: FileStamp) => EditCheck,
): Promise<SpliceWrite> {
  const opened = await openRegular(path, "update");
  if (!opened.ok) return { ok: false, reason: opened.error };
  const { handle, info: now } = opened;
  try {
    const allowed = check({ size: now.size, mtimeMs: now.mtimeMs });
    if (!allowed.ok) return allowed;
    await writeAll(handle, splice);
    if (now.size > splice.length) await handle.truncate(splice.length);
    const written = await handle.stat();
    return { ok: true, stamp: { size: written.size, mtimeMs: written.mtimeMs } };
  } finally {
    await handle.close();
  }
}

/**
 * Creates a new file with `bytes` (never following a symlink, never opening what appeared at
 * the path since: see {@link createRegular}); gives its stamp, taken on the open file, or why
 * nothing was written. Rejects on an I/O error.
 */
export async function writeNewFile(path: string, bytes: Buffer): Promise<SpliceWrite> {
  const created = await createRegular(path);
  if (!created.ok) return { ok: false, reason: created.error };
  const { handle } = created;
  try {
    await handle.writeFile(bytes);
    const written = await handle.stat();
    return { ok: true, stamp: { size: written.size, mtimeMs: written.mtimeMs } };
  } finally {
    await handle.close();
  }
}
