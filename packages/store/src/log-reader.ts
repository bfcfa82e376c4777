import { open } from "node:fs/promises";
import { errnoCode, StoreError } from "./errors.js";
import { checkRecord } from "./record-check.js";
import type { LogRecord } from "./records.js";

/** A line that cost its record: it did not parse, or a known kind lacks required fields. */
export interface LogDamage {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly reason: string;
  /** The start of the line, for a report (at most 120 characters). */
  readonly excerpt: string;
}

/** A record of a kind this version does not know: kept on disk, skipped by replay. */
export interface UnknownRecord {
  readonly line: number;
  readonly kind: string;
}

/** A half-written last line (no final newline): bytes from `offset` to the end. */
export interface TornTail {
  /** Where the intact log ends; repair truncates the file here. */
  readonly offset: number;
  readonly bytes: number;
}

/** Everything read from one log file. */
export interface ReadLogResult {
  /** The intact records, in file order. */
  readonly records: LogRecord[];
  readonly damage: LogDamage[];
  readonly unknown: UnknownRecord[];
  readonly tornTail: TornTail | null;
  /** Bytes read (the file's size when read). */
  readonly size: number;
}

const CHUNK = 64 * 1024 * 1024;

/** Options of {@link readLog}. */
export interface ReadLogOptions {
  /** Bytes read at a time (default 64 MiB); lines longer than this still read whole. */
  readonly chunkBytes?: number;
}
const NEWLINE = 10;

class LineFolder {
  readonly records: LogRecord[] = [];
  readonly damage: LogDamage[] = [];
  readonly unknown: UnknownRecord[] = [];
  private lineNo = 0;

  /** Folds a block of whole lines; `text` ends with a newline. */
  fold(text: string): void {
    let start = 0;
    for (;;) {
      const end = text.indexOf("\n", start);
      if (end < 0) return;
      this.lineNo++;
      if (end > start) this.line(text.slice(start, end));
      start = end + 1;
    }
  }

  private line(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (line.trim() === "") return;
      this.damaged(line, `malformed JSON: ${(error as Error).message}`);
      return;
    }
    const check = checkRecord(value);
    if (check.status === "ok") this.records.push(check.record);
    else if (check.status === "unknown") this.unknown.push({ line: this.lineNo, kind: check.kind });
    else this.damaged(line, check.reason);
  }

  private damaged(line: string, reason: string): void {
    this.damage.push({ line: this.lineNo, reason, excerpt: line.slice(0, 120) });
  }
}

/**
 * Reads a log without changing it. A missing final newline marks a torn tail (reported, not
 * folded); a damaged line is reported and skipped; an unknown kind is listed and skipped.
 * Never throws for bad content; rejects with `StoreError` (`notFound` or `io`) when the file
 * cannot be read.
 */
export async function readLog(path: string, options?: ReadLogOptions): Promise<ReadLogResult> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    const code = errnoCode(error) === "ENOENT" ? "notFound" : "io";
    throw new StoreError(code, `cannot open log ${path}`, { cause: error });
  }
  try {
    return await readLines(handle, path, options?.chunkBytes ?? CHUNK);
  } finally {
    await handle.close();
  }
}

async function readLines(
  handle: Awaited<ReturnType<typeof open>>,
  path: string,
  chunk: number,
): Promise<ReadLogResult> {
  const folder = new LineFolder();
  let position = 0;
  let carry = Buffer.alloc(0);
  try {
    const size = (await handle.stat()).size;
    while (position < size) {
      const want = Math.min(chunk, size - position);
      const buffer = Buffer.allocUnsafe(carry.length + want);
      carry.copy(buffer, 0);
      const { bytesRead } = await handle.read(buffer, carry.length, want, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const end = carry.length + bytesRead;
      const newline = buffer.lastIndexOf(NEWLINE, end - 1);
      if (newline < 0) {
        carry = buffer.subarray(0, end);
        continue;
      }
      // A newline byte never occurs inside a multi-byte UTF-8 sequence, so cutting here is safe.
      folder.fold(buffer.toString("utf8", 0, newline + 1));
      carry = buffer.subarray(newline + 1, end);
    }
  } catch (error) {
    throw new StoreError("io", `cannot read log ${path}`, { cause: error });
  }
  const tornTail =
    carry.length > 0 ? { offset: position - carry.length, bytes: carry.length } : null;
  return {
    records: folder.records,
    damage: folder.damage,
    unknown: folder.unknown,
    tornTail,
    size: position,
  };
}
