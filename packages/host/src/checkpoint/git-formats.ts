/** A tree and an index in git's own formats, for the first snapshot written in process. */
import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import type { PackWriter } from "./pack-writer.js";

/** Git's file modes, as an index stores them and as a tree spells them. */
export const MODES = {
  file: { index: 0o100644, tree: "100644" },
  executable: { index: 0o100755, tree: "100755" },
  link: { index: 0o120000, tree: "120000" },
} as const;

export interface Entry {
  /** The path's bytes (UTF-8), which order the index and name the tree entries. */
  readonly path: Buffer;
  readonly mode: (typeof MODES)[keyof typeof MODES];
  readonly oid: Buffer;
  readonly stat: BigIntStats;
}

/**
 * Writes the tree of `entries` (sorted by path bytes) under `prefix` and its subtrees;
 * resolves to its name. Git orders a tree's entries by name, a folder's name compared as if
 * it ended in `/`.
 */
export function writeTree(pack: PackWriter, entries: readonly Entry[], prefix: number): Buffer {
  const items: { key: Buffer; line: Buffer }[] = [];
  let at = 0;
  while (at < entries.length) {
    const path = (entries[at] as Entry).path;
    const slash = path.indexOf(0x2f, prefix);
    if (slash < 0) {
      const entry = entries[at] as Entry;
      const name = path.subarray(prefix);
      items.push({ key: name, line: treeLine(entry.mode.tree, name, entry.oid) });
      at++;
      continue;
    }
    // Every path below this folder shares its bytes up to and including the slash.
    const folder = path.subarray(0, slash + 1);
    let end = at + 1;
    while (end < entries.length && startsWith((entries[end] as Entry).path, folder)) end++;
    const oid = writeTree(pack, entries.slice(at, end), slash + 1);
    const name = path.subarray(prefix, slash);
    items.push({ key: folder.subarray(prefix), line: treeLine("40000", name, oid) });
    at = end;
  }
  items.sort((a, b) => Buffer.compare(a.key, b.key));
  return pack.add("tree", Buffer.concat(items.map((item) => item.line)));
}

function treeLine(mode: string, name: Buffer, oid: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${mode} `), name, Buffer.from([0]), oid]);
}

function startsWith(path: Buffer, prefix: Buffer): boolean {
  return (
    path.length > prefix.length && path.compare(prefix, 0, prefix.length, 0, prefix.length) === 0
  );
}

/**
 * A version 2 index of `entries`: what lstat saw (so git finds them unchanged without
 * hashing) and each blob's name. See gitformat-index(5).
 */
export function indexBytes(entries: readonly Entry[]): Buffer {
  const parts: Buffer[] = [];
  const header = Buffer.alloc(12);
  header.write("DIRC", 0, "latin1");
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(entries.length, 8);
  parts.push(header);
  const u32 = (value: bigint) => Number(value & 0xffffffffn);
  for (const { path, mode, oid, stat } of entries) {
    // 62 fixed bytes and the path, padded with 1 to 8 NULs to a multiple of 8.
    const entry = Buffer.alloc((62 + path.length + 8) & ~7);
    const fields = [
      stat.ctimeNs / 1_000_000_000n,
      stat.ctimeNs % 1_000_000_000n,
      stat.mtimeNs / 1_000_000_000n,
      stat.mtimeNs % 1_000_000_000n,
      stat.dev,
      stat.ino,
      BigInt(mode.index),
      stat.uid,
      stat.gid,
      stat.size,
    ];
    for (const [i, value] of fields.entries()) entry.writeUInt32BE(u32(value), i * 4);
    oid.copy(entry, 40);
    entry.writeUInt16BE(Math.min(path.length, 0xfff), 60);
    path.copy(entry, 62);
    parts.push(entry);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}
