import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { errnoCode, StoreError } from "./errors.js";
import { LineFolder } from "./log-reader.js";
import type { LogRecord } from "./records.js";

// `logRecord` puts `kind` first, so every resume point's line starts with these bytes.
const MARK = Buffer.from('{"kind":"resumePoint"');
const CHUNK = 1024 * 1024;

/**
 * The offset of the last line that starts a `resumePoint` record, scanning back from the
 * end of the log in 1 MiB steps (so the cost follows the distance from the end, not the
 * size of the log), or null when there is none. Only the line's start is matched: the
 * caller checks the record it reads there. Rejects with `io`; a missing file is null.
 */
export async function findLastResumePoint(path: string): Promise<number | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return null;
    throw new StoreError("io", `cannot open log ${path}`, { cause: error });
  }
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(CHUNK + MARK.length);
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      // The chunk plus the first bytes of the next one, so a mark across the cut is seen.
      const want = Math.min(end - start + MARK.length, size - start);
      const { bytesRead } = await handle.read(buffer, 0, want, start);
      const view = buffer.subarray(0, bytesRead);
      for (let at = view.lastIndexOf(MARK); at >= 0; at = view.lastIndexOf(MARK, at - 1)) {
        const lineStart = start + at === 0 || view[at - 1] === 10;
        if (lineStart && start + at < end) return start + at;
        if (at === 0) break;
      }
      end = start;
    }
    return null;
  } catch (error) {
    throw new StoreError("io", `cannot read log ${path}`, { cause: error });
  } finally {
    await handle.close();
  }
}

/**
 * Reads every intact record of a log synchronously (damaged lines, unknown kinds and a torn
 * tail skipped), for the rare fold that must start over from the first line while appends
 * wait. Throws `StoreError` (`io`).
 */
export function readRecordsSync(path: string): LogRecord[] {
  const folder = new LineFolder();
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    throw new StoreError("io", `cannot open log ${path}`, { cause: error });
  }
  try {
    const size = fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(4 * CHUNK);
    let position = 0;
    let carried = 0;
    while (position < size) {
      if (carried === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, carried);
        buffer = bigger;
      }
      const read = readSync(fd, buffer, carried, buffer.length - carried, position);
      if (read === 0) break;
      position += read;
      const end = carried + read;
      const newline = buffer.lastIndexOf(10, end - 1);
      if (newline >= 0) {
        folder.fold(buffer.toString("utf8", 0, newline + 1));
        buffer.copyWithin(0, newline + 1, end);
      }
      carried = end - (newline + 1);
    }
    return folder.records;
  } catch (error) {
    throw new StoreError("io", `cannot read log ${path}`, { cause: error });
  } finally {
    closeSync(fd);
  }
}
