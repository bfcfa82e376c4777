import { closeSync, fstatSync, fsync, ftruncateSync, openSync, writeSync } from "node:fs";
import { PRIVATE_FILE } from "./private.js";
import { truncate } from "node:fs/promises";
import { promisify } from "node:util";
import { appendFailedError, errnoCode, StoreError, syncFailedError } from "./errors.js";
import { type ReadLogResult, readLog } from "./log-reader.js";
import { checkRecord } from "./record-check.js";
import type { LogRecord } from "./records.js";

const fsyncAsync = promisify(fsync);

/**
 * The append side of one log file. Each append is one JSON line handed to the OS with a
 * synchronous `write` before `append` returns, so lines land in call order whatever the
 * number of concurrent callers, and a record is in the kernel (safe from a process crash)
 * before its promise settles. Nothing is fsynced until `sync()` or `close()`.
 */
export class AppendLog {
  readonly path: string;
  private fd: number | null;
  private bytes: number;
  /** A failed write may have left part of its line past `bytes` that could not be cut yet. */
  private torn = false;

  private constructor(path: string, fd: number, size: number) {
    this.path = path;
    this.fd = fd;
    this.bytes = size;
  }

  /** Opens (creating) a log for appending; the caller has repaired any torn tail. */
  static openRepaired(path: string): AppendLog {
    try {
      const fd = openSync(path, "a", PRIVATE_FILE);
      return new AppendLog(path, fd, fstatSync(fd).size);
    } catch (error) {
      throw new StoreError("io", `cannot open log ${path} for appending`, { cause: error });
    }
  }

  /** Bytes in the log, as far as this writer knows. */
  get size(): number {
    return this.bytes;
  }

  /**
   * Appends one record. Resolves once its line was written; rejects with `invalidRecord`
   * (the record fails the structural check or cannot be serialised), `appendFailed` (the
   * write failed; a partial line is cut back off, or, when even that fails, before the next
   * append writes, which rejects while it cannot) or `closed`. Nothing is written on reject.
   */
  append(record: LogRecord): Promise<void> {
    return this.appendAll([record]);
  }

  /** Appends several records with one write, in order; all or none (see `append`). */
  appendAll(records: readonly LogRecord[]): Promise<void> {
    try {
      this.appendSync(records);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `appendAll` that returns once written, or throws the same `StoreError`s. */
  appendSync(records: readonly LogRecord[]): void {
    this.writeBytes(Buffer.from(serialise(records), "utf8"));
  }

  /**
   * Flushes the log to the disk (fsync). Rejects with `io` saying why (`an I/O error on the
   * device (EIO)`) on failure, `closed` after close.
   */
  async sync(): Promise<void> {
    const fd = this.openFd();
    try {
      await fsyncAsync(fd);
    } catch (error) {
      throw syncFailedError(this.path, error);
    }
  }

  /** Syncs and closes. Safe to call twice; later appends reject with `closed`. */
  async close(): Promise<void> {
    if (this.fd === null) return;
    try {
      await this.sync();
    } finally {
      const fd = this.fd;
      this.fd = null;
      if (fd !== null) closeSync(fd);
    }
  }

  private openFd(): number {
    if (this.fd === null) throw new StoreError("closed", `log ${this.path} is closed`);
    return this.fd;
  }

  private writeBytes(bytes: Buffer): void {
    const fd = this.openFd();
    // A line a failed write left behind must go before the next one lands after it (the file
    // is opened for appending): else both become one damaged line.
    if (this.torn) this.cutBack(fd, true);
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      // Even a write that reports nothing written may have put part of the line on the
      // device (EIO from a device that took some of it).
      this.cutBack(fd, false);
      throw appendFailedError(this.path, error);
    }
    this.bytes += bytes.length;
  }

  /** Cuts the file back to the last whole line; `strict` throws `appendFailed` when it cannot. */
  private cutBack(fd: number, strict: boolean): void {
    try {
      ftruncateSync(fd, this.bytes);
      this.torn = false;
    } catch (error) {
      // The torn line stays until a later append cuts it, or the next open does.
      this.torn = true;
      if (strict) throw appendFailedError(this.path, error);
    }
  }
}

/** JSON lines of records that pass `checkRecord`; throws `invalidRecord` for one that does not. */
export function serialise(records: readonly LogRecord[]): string {
  let out = "";
  for (const record of records) {
    const check = checkRecord(record);
    if (check.status !== "ok") {
      const why = check.status === "unknown" ? `unknown kind ${check.kind}` : check.reason;
      throw new StoreError("invalidRecord", `refusing to append a bad record: ${why}`);
    }
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch (error) {
      throw new StoreError("invalidRecord", "record cannot be serialised", { cause: error });
    }
    out += `${line}\n`;
  }
  return out;
}

/** A log read for writing: its records, what was lost, and the writer positioned at its end. */
export interface OpenedLog {
  readonly log: AppendLog;
  readonly read: ReadLogResult;
}

/**
 * Reads a log (an empty one when the file is missing; from `options.from`, a line's start,
 * when given), cuts a torn tail off the file, and opens it for appending. Rejects with `StoreError` (`io`) when the file cannot be read,
 * repaired or opened.
 */
export async function openLogForAppend(
  path: string,
  options?: { readonly from?: number },
): Promise<OpenedLog> {
  let read: ReadLogResult;
  try {
    read = await readLog(path, options);
  } catch (error) {
    if (!(error instanceof StoreError) || error.code !== "notFound") throw error;
    read = { records: [], damage: [], unknown: [], tornTail: null, size: 0 };
  }
  if (read.tornTail !== null) {
    try {
      await truncate(path, read.tornTail.offset);
    } catch (error) {
      if (errnoCode(error) !== "ENOENT") {
        throw new StoreError("io", `cannot repair the torn tail of ${path}`, { cause: error });
      }
    }
  }
  return { log: AppendLog.openRepaired(path), read };
}
