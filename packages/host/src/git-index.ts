import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** One entry of a git index file: what git recorded for a path at one merge stage. */
export interface IndexEntry {
  /** The path's bytes as a byte string (one character per byte, as `latin1` decodes). */
  readonly path: string;
  readonly stage: number;
  /**
   * The modification time (seconds, nanoseconds) and size git recorded, as it stores them:
   * three big-endian 32-bit numbers (the size truncated to 32 bits), as a 12-byte string.
   */
  readonly mtimeAndSize: string;
}

/** A parsed index file (versions 2 to 4); for a split index, its own part only. */
export interface ParsedIndex {
  readonly count: number;
  /** The entries, when they were asked for. */
  readonly entries: readonly IndexEntry[];
  /** Extension signature → its data. */
  readonly extensions: ReadonlyMap<string, Buffer>;
}

/** The bytes of a sha1 or sha256 object name. */
export type HashLength = 20 | 32;

/**
 * Parses a git index (format: gitformat-index(5)). Resolves to null for anything it does
 * not understand (another version, a truncated or malformed file) so the caller can ask git
 * instead; never throws. `withEntries: false` only walks the entries (to reach the
 * extensions), without decoding them.
 */
export function parseIndex(
  buf: Buffer,
  hashLength: HashLength,
  withEntries: boolean,
): ParsedIndex | null {
  if (buf.length < 12 + hashLength || buf.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const end = buf.length - hashLength;
  const fixed = 40 + hashLength + 2;
  // One decode of the whole file, then cheap slices: far faster than a decode per path.
  const text = withEntries ? buf.toString("latin1") : "";
  const entries: IndexEntry[] = [];
  let name = "";
  let nameLength = 0;
  let pos = 12;
  for (let i = 0; i < count; i++) {
    if (pos + fixed > end) return null;
    const flags = buf.readUInt16BE(pos + fixed - 2);
    let at = pos + fixed + (flags & 0x4000 && version >= 3 ? 2 : 0);
    let keep = 0;
    if (version === 4) {
      // Version 4 names drop a count of the previous name's trailing bytes, then add theirs.
      const strip = readVarint(buf, at);
      if (strip === null || strip.value > nameLength) return null;
      keep = nameLength - strip.value;
      at = strip.next;
    }
    const nul = buf.indexOf(0, at);
    if (nul < 0 || nul >= end) return null;
    nameLength = keep + (nul - at);
    if (withEntries) {
      name = keep === 0 ? text.slice(at, nul) : name.slice(0, keep) + text.slice(at, nul);
      entries.push({
        path: name,
        stage: (flags >> 12) & 3,
        mtimeAndSize: text.slice(pos + 8, pos + 16) + text.slice(pos + 36, pos + 40),
      });
    }
    // Versions 2 and 3 pad each entry with 1 to 8 NULs to a multiple of 8 bytes.
    pos = version === 4 ? nul + 1 : pos + ((nul - pos + 8) & ~7);
  }
  const extensions = readExtensions(buf, pos, end);
  return extensions ? { count, entries, extensions } : null;
}

function readVarint(buf: Buffer, at: number): { value: number; next: number } | null {
  // Git's offset varint: 7 bits a byte, high bit set on all but the last, +1 per continuation.
  let pos = at;
  let byte = buf[pos++];
  if (byte === undefined) return null;
  let value = byte & 0x7f;
  while (byte & 0x80) {
    byte = buf[pos++];
    if (byte === undefined || value > 0xffffff) return null;
    value = ((value + 1) << 7) | (byte & 0x7f);
  }
  return { value, next: pos };
}

function readExtensions(buf: Buffer, start: number, end: number): Map<string, Buffer> | null {
  const extensions = new Map<string, Buffer>();
  let pos = start;
  while (pos < end) {
    if (pos + 8 > end) return null;
    const size = buf.readUInt32BE(pos + 4);
    if (pos + 8 + size > end) return null;
    extensions.set(buf.toString("latin1", pos, pos + 4), buf.subarray(pos + 8, pos + 8 + size));
    pos += 8 + size;
  }
  return extensions;
}

/** The number of set bits in a serialised EWAH bitmap at `at`; null when malformed. */
function ewahSetBits(data: Buffer, at: number): { bits: number; next: number } | null {
  if (at + 8 > data.length) return null;
  const words = data.readUInt32BE(at + 4);
  const first = at + 8;
  const next = first + words * 8 + 4;
  if (next > data.length) return null;
  let bits = 0;
  let i = 0;
  while (i < words) {
    // A marker word: bit 0 the run's bit, bits 1-32 the run's length in words, bits 33-63
    // how many literal words follow.
    const high = data.readUInt32BE(first + i * 8);
    const low = data.readUInt32BE(first + i * 8 + 4);
    const runWords = (low >>> 1) + (high & 1) * 0x80000000;
    if (low & 1) bits += runWords * 64;
    const literals = high >>> 1;
    for (let j = 1; j <= literals; j++) {
      if (i + j >= words) return null;
      bits += popcount(data.readUInt32BE(first + (i + j) * 8));
      bits += popcount(data.readUInt32BE(first + (i + j) * 8 + 4));
    }
    i += literals + 1;
  }
  return { bits, next };
}

function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The number of entries a git index holds, a split index (`core.splitIndex`) included: its
 * shared part (`<gitDir>/sharedindex.<hash>`) less the entries it deletes, plus its own
 * entries less those that only replace shared ones. 0 when there is no index; null when the
 * file cannot be understood (ask git instead). Rejects only when the file cannot be read.
 */
export async function countIndexEntries(
  indexFile: string,
  gitDir: string,
  hashLength: HashLength,
): Promise<number | null> {
  // No index yet (a first snapshot): known without a trip through the thread pool.
  if (!existsSync(indexFile)) return 0;
  const buf = await readFile(indexFile).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  if (buf === null) return 0;
  const index = parseIndex(buf, hashLength, false);
  if (index === null) return null;
  const link = index.extensions.get("link");
  if (link === undefined) return index.count;
  const shared = link.subarray(0, hashLength).toString("hex");
  const deleted = ewahSetBits(link, hashLength);
  const replaced = deleted && ewahSetBits(link, deleted.next);
  if (!deleted || !replaced || replaced.next !== link.length) return null;
  const base = await readFile(join(gitDir, `sharedindex.${shared}`)).catch(() => null);
  if (base === null || base.length < 12 || base.toString("latin1", 0, 4) !== "DIRC") return null;
  const total = base.readUInt32BE(8) - deleted.bits + index.count - replaced.bits;
  return total >= 0 && replaced.bits <= index.count ? total : null;
}
