import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changeDiff, unifiedDiff } from "./diff.js";
import { changedText, narrowChange, type TextChange } from "./text-change.js";
import { decodeText, encodeText, type TextFormat } from "./text-file.js";
import {
  type ByteSplice,
  type ReadText,
  spliceFor,
  type VectorWriter,
  writeAll,
  writeSplice,
} from "./text-splice.js";

/** A small deterministic PRNG (mulberry32), so a failure names a reproducible seed. */
function prng(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

function pick<T>(random: (n: number) => number, items: readonly T[]): T {
  return items[random(items.length)] as T;
}

function randomText(random: (n: number) => number, alphabet: readonly string[]): string {
  return Array.from({ length: random(40) }, () => pick(random, alphabet)).join("");
}

interface Case {
  readonly name: string;
  /** The file's bytes. */
  readonly bytes: (random: (n: number) => number) => Buffer;
  readonly format: Partial<TextFormat>;
}

const UTF8 = ["a", "b", "\n", "é", "😀", "😃", "€", "\r"];
const INSERTS = [...UTF8, "\ud83d", "\ude00", "ÿ"];
const CASES: Case[] = [
  { name: "UTF-8", bytes: (r) => Buffer.from(randomText(r, UTF8)), format: { encoding: "utf8" } },
  {
    name: "UTF-8 with BOM",
    bytes: (r) => Buffer.from(`\ufeffx${randomText(r, UTF8)}`),
    format: { encoding: "utf8", bom: true },
  },
  {
    name: "CRLF",
    bytes: (r) => Buffer.from(`x\r\n${randomText(r, UTF8).replaceAll("\n", "\r\n")}`),
    format: { crlf: true },
  },
  {
    name: "Latin-1",
    bytes: (r) =>
      Buffer.concat([
        Buffer.from([0xe9, 0x0a, 0xff]),
        Buffer.from(randomText(r, ["a", "\n", "é"]), "latin1"),
      ]),
    format: { encoding: "latin1" },
  },
  {
    name: "Latin-1 CRLF",
    bytes: (r) =>
      Buffer.from(`\xe9\r\n${randomText(r, ["a", "\n", "é"]).replaceAll("\n", "\r\n")}`, "latin1"),
    format: { encoding: "latin1", crlf: true },
  },
  {
    name: "UTF-16",
    bytes: (r) =>
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(randomText(r, UTF8), "utf16le")]),
    format: { encoding: "utf16le" },
  },
];

function randomChange(random: (n: number) => number, text: string): TextChange {
  const a = random(text.length + 1);
  const b = random(text.length + 1);
  return { start: Math.min(a, b), end: Math.max(a, b), insert: randomText(random, INSERTS) };
}

function applied(bytes: Buffer, splice: ByteSplice): Buffer {
  const written = Buffer.concat([bytes.subarray(0, splice.offset), ...splice.chunks]);
  expect(written.length).toBe(splice.length);
  return written;
}

describe("spliceFor", () => {
  for (const testCase of CASES) {
    it(`writes exactly what a whole re-encoding would (${testCase.name})`, () => {
      for (let seed = 1; seed <= 400; seed++) {
        const random = prng(seed);
        const bytes = testCase.bytes(random);
        const file: ReadText = { ...decodeText(bytes), bytes };
        expect(file.format).toMatchObject(testCase.format);
        const change = randomChange(random, file.text);
        const expected = encodeText(changedText(file.text, change), file.format);
        expect(applied(bytes, spliceFor(file, change)), `seed ${seed}`).toEqual(expected);
        const narrow = narrowChange(file.text, change);
        expect(applied(bytes, spliceFor(file, narrow)), `seed ${seed}`).toEqual(expected);
      }
    });
  }

  it("starts at the change and keeps the bytes after it", () => {
    const bytes = Buffer.from(`${"a\n".repeat(1000)}é😀 middle 😀\n${"b\n".repeat(1000)}`);
    const file: ReadText = { ...decodeText(bytes), bytes };
    const start = file.text.indexOf("middle");
    const splice = spliceFor(file, { start, end: start + 6, insert: "centre" });
    expect(splice.offset).toBe(2000 + Buffer.byteLength("é😀 "));
    expect(splice.chunks[0]?.toString()).toBe("centre");
    expect(splice.length).toBe(bytes.length);
  });
});

describe("changeDiff", () => {
  it("gives the same diff as unifiedDiff of the whole texts", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = prng(seed);
      const lines = Array.from({ length: 1 + random(30) }, (_, i) => `line ${i}`);
      const before = lines.join("\n") + (random(2) === 0 ? "\n" : "");
      const change = randomChange(random, before);
      // Unique inserted text, so the change's place is not ambiguous.
      const insert = change.insert.length === 0 ? "" : `<${seed}>${change.insert}<${seed}>`;
      const unique = { ...change, insert };
      const after = changedText(before, unique);
      expect(changeDiff("f.txt", before, unique), `seed ${seed}`).toEqual(
        unifiedDiff("f.txt", before, after),
      );
    }
  });

  it("numbers a change deep in a large text from its real line", () => {
    const before = Array.from({ length: 100_000 }, (_, i) => `row ${i}\n`).join("");
    const start = before.indexOf("row 70000\n");
    const { diff, added, removed } = changeDiff("big.txt", before, {
      start,
      end: start + 9,
      insert: "ROW",
    });
    expect([added, removed]).toEqual([1, 1]);
    expect(diff).toContain(
      "@@ -69998,7 +69998,7 @@\n row 69997\n row 69998\n row 69999\n-row 70000\n+ROW\n",
    );
  });
});

describe("writeSplice", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "zeng-splice-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("writes in place, shrinking or growing the file, and returns the new stamp", async () => {
    const path = join(dir, "f.txt");
    const bytes = Buffer.from("one\ntwo\nthree\n");
    await writeFile(path, bytes);
    const file: ReadText = { ...decodeText(bytes), bytes };
    const shrink = await writeSplice(
      path,
      spliceFor(file, { start: 4, end: 7, insert: "2" }),
      () => ({ ok: true }),
    );
    expect(await readFile(path, "utf8")).toBe("one\n2\nthree\n");
    const info = await stat(path);
    expect(shrink).toEqual({ ok: true, stamp: { size: info.size, mtimeMs: info.mtimeMs } });
    const now = await readFile(path);
    const grown: ReadText = { ...decodeText(now), bytes: now };
    await writeSplice(path, spliceFor(grown, { start: 0, end: 3, insert: "uno, eins" }), () => ({
      ok: true,
    }));
    expect(await readFile(path, "utf8")).toBe("uno, eins\n2\nthree\n");
  });

  it("writes nothing when the check on the open file refuses", async () => {
    const path = join(dir, "f.txt");
    const bytes = Buffer.from("keep me\n");
    await writeFile(path, bytes);
    const file: ReadText = { ...decodeText(bytes), bytes };
    const seen: number[] = [];
    const out = await writeSplice(
      path,
      spliceFor(file, { start: 0, end: 4, insert: "lose" }),
      (current) => {
        seen.push(current.size);
        return { ok: false, reason: "changed since read" };
      },
    );
    expect(out).toEqual({ ok: false, reason: "changed since read" });
    expect(seen).toEqual([8]);
    expect(await readFile(path, "utf8")).toBe("keep me\n");
  });

  it("rewrites the whole file for an empty change, so its time still moves", async () => {
    const bytes = Buffer.from("same\n");
    const file: ReadText = { ...decodeText(bytes), bytes };
    expect(spliceFor(file, { start: 2, end: 2, insert: "" })).toEqual({
      offset: 0,
      chunks: [bytes],
      length: bytes.length,
    });
  });
});

describe("writeAll", () => {
  it("finishes a write the OS took only part of, at the right places", async () => {
    const file = Buffer.from("0123456789");
    let calls = 0;
    // A writer that takes at most 3 bytes per call, like a short write.
    const writer: VectorWriter = {
      writev: async <T extends readonly NodeJS.ArrayBufferView[]>(
        buffers: T,
        position?: number | null,
      ) => {
        calls++;
        let at = position ?? 0;
        let left = 3;
        for (const buffer of buffers) {
          const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
          const n = Math.min(left, bytes.length);
          bytes.copy(file, at, 0, n);
          at += n;
          left -= n;
        }
        return { bytesWritten: 3 - left, buffers };
      },
    };
    const splice: ByteSplice = {
      offset: 2,
      chunks: [Buffer.from("ab"), Buffer.alloc(0), Buffer.from("cdefg")],
      length: 9,
    };
    await writeAll(writer, splice);
    expect(file.toString()).toBe("01abcdefg9");
    expect(calls).toBe(3);
  });

  it("rejects a write that makes no progress instead of looping", async () => {
    const stuck: VectorWriter = {
      writev: async <T extends readonly NodeJS.ArrayBufferView[]>(buffers: T) => ({
        bytesWritten: 0,
        buffers,
      }),
    };
    const splice: ByteSplice = { offset: 0, chunks: [Buffer.from("x")], length: 1 };
    await expect(writeAll(stuck, splice)).rejects.toThrow(/no progress/);
  });
});
