import { createHash } from "node:crypto";
import { closeSync, openSync, renameSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { crc32, deflateSync } from "node:zlib";

/** The object types a snapshot writes, with their pack type codes (gitformat-pack(5)). */
const TYPES = { commit: 1, tree: 2, blob: 3 } as const;
export type ObjectType = keyof typeof TYPES;

interface PackedObject {
  readonly oid: Buffer;
  readonly type: ObjectType;
  readonly data: Buffer;
}

/**
 * Writes `path` through a temporary file and a rename (a reader sees all of it or none). The
 * temporary name starts with `tmp_`, as git's own do, so `git prune` removes one a crash left.
 */
function writeFileAtomically(path: string, data: Buffer): void {
  const temp = join(dirname(path), `tmp_${process.pid}_${basename(path)}`);
  // Read-only and the user's alone, as git makes objects under `sharedRepository = 0600`.
  const fd = openSync(temp, "w", 0o400);
  try {
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/**
 * zlib's settings for an object of `size` bytes. zlib sets up and clears a window and a hash
 * table for each stream, some 256 KiB at its defaults (windowBits 15, memLevel 8), which for
 * an object of a few hundred bytes costs more than compressing it. The window here is the
 * smallest that still reaches back to the object's first byte from its last (zlib keeps 262
 * bytes of a window for look-ahead), so the same matches are in reach as with the default
 * one, and the hash table keeps the defaults' proportion to it. Git reads any window size.
 */
export function deflateOptions(size: number): { level: 1; windowBits: number; memLevel: number } {
  const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(size + 262))));
  return { level: 1, windowBits, memLevel: windowBits - 7 };
}

/** An object's pack entry header: type and size, the size in 4 bits then 7-bit groups. */
function entryHeader(type: ObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let byte = (TYPES[type] << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}

/**
 * Objects gathered in memory and written as one pack (issue 18): a loose object costs a
 * folder, a temporary file and a rename, and on a disk where each of those takes a
 * fraction of a millisecond a first snapshot's dozen objects cost more than everything
 * else it does. Sha1 repositories only.
 */
export class PackWriter {
  private readonly objects = new Map<string, PackedObject>();

  /** Adds an object (once per name); returns its name. */
  add(type: ObjectType, data: Buffer): Buffer {
    const oid = createHash("sha1").update(`${type} ${data.length}\0`).update(data).digest();
    const hex = oid.toString("hex");
    if (!this.objects.has(hex)) this.objects.set(hex, { oid, type, data });
    return oid;
  }

  /**
   * Writes `pack-<checksum>.pack` and then its version 2 `.idx` into `objectsDir/pack`,
   * each through a temporary file and a rename: git only sees a pack once its index is
   * there, and then all of it. Writes nothing when no object was added.
   */
  write(objectsDir: string): void {
    const objects = [...this.objects.values()];
    if (objects.length === 0) return;
    const header = Buffer.alloc(12);
    header.write("PACK", 0, "latin1");
    header.writeUInt32BE(2, 4);
    header.writeUInt32BE(objects.length, 8);
    const parts: Buffer[] = [header];
    const placed: { oid: Buffer; offset: number; crc: number }[] = [];
    let offset = header.length;
    for (const { oid, type, data } of objects) {
      const entry = Buffer.concat([
        entryHeader(type, data.length),
        deflateSync(data, deflateOptions(data.length)),
      ]);
      placed.push({ oid, offset, crc: crc32(entry) });
      parts.push(entry);
      offset += entry.length;
    }
    const body = Buffer.concat(parts);
    const checksum = createHash("sha1").update(body).digest();
    const base = join(objectsDir, "pack", `pack-${checksum.toString("hex")}`);
    writeFileAtomically(`${base}.pack`, Buffer.concat([body, checksum]));
    writeFileAtomically(`${base}.idx`, indexOf(placed, checksum));
  }
}

/** A version 2 pack index: fan-out table, sorted names, CRCs, offsets, checksums. */
function indexOf(placed: { oid: Buffer; offset: number; crc: number }[], packSum: Buffer): Buffer {
  const sorted = [...placed].sort((a, b) => Buffer.compare(a.oid, b.oid));
  const count = sorted.length;
  // Header, fan-out, per object a name, a CRC and an offset, then the two checksums.
  const idx = Buffer.alloc(8 + 256 * 4 + count * (20 + 4 + 4) + 2 * 20);
  idx.writeUInt32BE(0xff744f63, 0);
  idx.writeUInt32BE(2, 4);
  // Fan-out: entry b counts the names whose first byte is at most b.
  const counts = new Array<number>(256).fill(0);
  for (const { oid } of sorted) counts[oid[0] as number] = (counts[oid[0] as number] ?? 0) + 1;
  let total = 0;
  counts.forEach((n, byte) => {
    total += n;
    idx.writeUInt32BE(total, 8 + byte * 4);
  });
  const names = 8 + 256 * 4;
  const crcs = names + count * 20;
  const offsets = crcs + count * 4;
  sorted.forEach(({ oid, crc, offset }, i) => {
    oid.copy(idx, names + i * 20);
    idx.writeUInt32BE(crc, crcs + i * 4);
    // A first snapshot is a few MiB at most: every offset fits in 31 bits.
    idx.writeUInt32BE(offset, offsets + i * 4);
  });
  packSum.copy(idx, offsets + count * 4);
  const body = idx.subarray(0, idx.length - 20);
  createHash("sha1")
    .update(body)
    .digest()
    .copy(idx, idx.length - 20);
  return idx;
}
