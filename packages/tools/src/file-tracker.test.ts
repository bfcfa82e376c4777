import { mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileTracker, stampOf } from "./file-tracker.js";
import { createPathLocks } from "./path-locks.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zeng-tracker-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("FileTracker", () => {
  it("refuses an edit of a file not read, allows it once read, refuses after a change", async () => {
    const path = join(dir, "a.txt");
    await writeFile(path, "one");
    const tracker = createFileTracker();
    expect(tracker.checkEditable(path, await stampOf(path))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not been read/),
    });
    tracker.record(path, (await stampOf(path))!);
    expect(tracker.checkEditable(path, await stampOf(path))).toEqual({ ok: true });
    await writeFile(path, "two, longer");
    expect(tracker.checkEditable(path, await stampOf(path))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/modified since/),
    });
    expect(tracker.checkEditable(path, null)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no longer exists/),
    });
  });

  it("lists the read files whose size or time changed, or that were deleted", async () => {
    const [a, b, c] = ["a", "b", "c"].map((n) => join(dir, n));
    for (const p of [a, b, c]) await writeFile(p!, "x");
    const tracker = createFileTracker();
    for (const p of [a, b, c]) tracker.record(p!, (await stampOf(p!))!);
    expect(await tracker.changedSinceRead()).toEqual([]);
    await utimes(a!, new Date(2001, 1, 1), new Date(2001, 1, 1));
    await rm(c!);
    expect(await tracker.changedSinceRead()).toEqual([a, c]);
    tracker.reset();
    expect(await tracker.changedSinceRead()).toEqual([]);
    expect(tracker.has(a!)).toBe(false);
  });
});

describe("PathLocks", () => {
  it("serialises calls on one path and releases after a rejection", async () => {
    const locks = createPathLocks();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const gate = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const first = locks.withLock(["/p"], async () => {
      order.push("first start");
      await gate;
      order.push("first end");
      throw new Error("first failed");
    });
    const second = locks.withLock(["/p", "/q"], async () => {
      order.push("second");
      return 2;
    });
    const other = locks.withLock(["/other"], async () => {
      order.push("other");
    });
    await other;
    expect(order).toEqual(["first start", "other"]);
    releaseFirst();
    await expect(first).rejects.toThrow("first failed");
    expect(await second).toBe(2);
    expect(order).toEqual(["first start", "other", "first end", "second"]);
  });
});
