import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreError } from "./errors.js";
import { readLog } from "./log-reader.js";
import { AppendLog, openLogForAppend } from "./log-writer.js";
import { type LogRecord, logRecord } from "./records.js";
import { msg, tempDir, userText } from "./test-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const title = (t: string, ts = 1) => logRecord("title", { title: t }, ts);
const line = (r: unknown) => `${JSON.stringify(r)}\n`;

describe("readLog", () => {
  it("reads every record in order", async () => {
    const path = join(dir, "log.jsonl");
    await writeFile(path, [title("a"), title("b"), msg(userText("m1", "hi"))].map(line).join(""));
    const read = await readLog(path);
    expect(read.records.map((r) => r.kind)).toEqual(["title", "title", "message"]);
    expect(read).toMatchObject({ damage: [], unknown: [], tornTail: null });
  });

  it("reports a torn last line without folding it", async () => {
    const path = join(dir, "log.jsonl");
    const good = line(title("a"));
    const torn = `{"kind":"title","v":2,"ts":1,"tit`;
    await writeFile(path, good + torn);
    const read = await readLog(path);
    expect(read.records).toHaveLength(1);
    expect(read.tornTail).toEqual({ offset: Buffer.byteLength(good), bytes: torn.length });
    // Reading never changes the file.
    expect((await stat(path)).size).toBe(Buffer.byteLength(good) + torn.length);
  });

  it("cuts a complete record missing only its newline: its append never returned", async () => {
    const path = join(dir, "log.jsonl");
    await writeFile(path, `${line(title("a"))}${JSON.stringify(title("b"))}`);
    const read = await readLog(path);
    expect(read.records).toHaveLength(1);
    expect(read.tornTail?.bytes).toBeGreaterThan(0);
  });

  it("reports each damaged line by number and keeps the rest", async () => {
    const path = join(dir, "log.jsonl");
    const content = [
      line(title("a")),
      "{not json\n",
      line({ kind: "message", v: 2, ts: 1, message: { id: "m", role: "user" } }),
      "\n",
      line({ kind: "fromTheFuture", v: 2, ts: 1, stuff: true }),
      line(title("b")),
    ].join("");
    await writeFile(path, content);
    const read = await readLog(path);
    expect(read.records.map((r) => (r.kind === "title" ? r.title : r.kind))).toEqual(["a", "b"]);
    expect(read.damage.map((d) => d.line)).toEqual([2, 3]);
    expect(read.damage[0]?.reason).toMatch(/malformed JSON/);
    expect(read.damage[1]?.reason).toMatch(/message\.content/);
    expect(read.unknown).toEqual([{ line: 5, kind: "fromTheFuture" }]);
  });

  it("reads lines across chunk boundaries, multi-byte text and lines longer than a chunk", async () => {
    const path = join(dir, "log.jsonl");
    const records = [
      title("żółw ✓ 🐢".repeat(5)),
      title("x".repeat(300)),
      title("é"),
      title("🐢".repeat(40)),
    ];
    await writeFile(path, records.map(line).join(""));
    for (const chunkBytes of [1, 7, 64, 1000]) {
      const read = await readLog(path, { chunkBytes });
      expect(read.records, `chunk ${chunkBytes}`).toEqual(records);
      expect(read.damage).toEqual([]);
    }
  });

  it("rejects with notFound for a missing file", async () => {
    await expect(readLog(join(dir, "nope.jsonl"))).rejects.toMatchObject({ code: "notFound" });
  });

  it("reads an empty file as an empty log", async () => {
    const path = join(dir, "log.jsonl");
    await writeFile(path, "");
    expect(await readLog(path)).toMatchObject({ records: [], tornTail: null, size: 0 });
  });
});

describe("AppendLog", () => {
  it("lands concurrent appends from many tasks in call order, one line each", async () => {
    const path = join(dir, "log.jsonl");
    const log = AppendLog.openRepaired(path);
    const order: string[] = [];
    const task = async (name: string) => {
      for (let i = 0; i < 50; i++) {
        const t = `${name}-${i}`;
        order.push(t);
        const pending = log.append(title(t));
        // Interleave awaits so the tasks really run side by side.
        if (i % 3 === 0) await pending;
      }
    };
    await Promise.all(["a", "b", "c", "d"].map(task));
    await log.close();
    const read = await readLog(path);
    expect(read.records.map((r) => (r.kind === "title" ? r.title : ""))).toEqual(order);
  });

  it("has each record on the OS by the time append settles (readable from another handle)", async () => {
    const path = join(dir, "log.jsonl");
    const log = AppendLog.openRepaired(path);
    await log.append(title("first"));
    expect(await readFile(path, "utf8")).toBe(line(title("first")));
    await log.close();
  });

  it("refuses a bad record and writes nothing", async () => {
    const path = join(dir, "log.jsonl");
    const log = AppendLog.openRepaired(path);
    const bad = { kind: "title", v: 2, ts: 1 } as unknown as LogRecord;
    await expect(log.append(bad)).rejects.toMatchObject({ code: "invalidRecord" });
    const unknown = { kind: "mystery", v: 2, ts: 1 } as unknown as LogRecord;
    await expect(log.append(unknown)).rejects.toMatchObject({ code: "invalidRecord" });
    const cyclic: Record<string, unknown> = { ...title("c") };
    cyclic.self = cyclic;
    await expect(log.append(cyclic as unknown as LogRecord)).rejects.toBeInstanceOf(StoreError);
    await expect(log.appendAll([title("ok"), bad])).rejects.toMatchObject({
      code: "invalidRecord",
    });
    await log.close();
    expect(await readFile(path, "utf8")).toBe("");
  });

  it("rejects with appendFailed when the write fails (a full disk), saying why", async () => {
    const log = AppendLog.openRepaired("/dev/full");
    await expect(log.append(title("x"))).rejects.toMatchObject({
      code: "appendFailed",
      message: "cannot append to /dev/full: no space left on the device (ENOSPC)",
    });
    expect(log.size).toBe(0);
  });

  it("rejects a sync that fails with io, saying why (a device that cannot flush)", async () => {
    const log = AppendLog.openRepaired("/dev/null");
    await expect(log.sync()).rejects.toMatchObject({
      code: "io",
      message: "cannot sync /dev/null: EINVAL: invalid argument, fsync",
    });
  });

  it("cuts what a failed write left before the next append, and refuses it while it cannot", async () => {
    // /dev/full refuses every write, and cannot be truncated either: the writer cannot know
    // that nothing reached the device, so the next append first tries to cut, and says why.
    const log = AppendLog.openRepaired("/dev/full");
    await expect(log.append(title("x"))).rejects.toMatchObject({ code: "appendFailed" });
    await expect(log.append(title("y"))).rejects.toMatchObject({
      code: "appendFailed",
      message: "cannot append to /dev/full: EINVAL: invalid argument, ftruncate",
    });
    expect(log.size).toBe(0);
  });

  it("rejects appends after close, and close twice is fine", async () => {
    const log = AppendLog.openRepaired(join(dir, "log.jsonl"));
    await log.close();
    await log.close();
    await expect(log.append(title("late"))).rejects.toMatchObject({ code: "closed" });
    await expect(log.sync()).rejects.toMatchObject({ code: "closed" });
  });

  it("syncs on demand", async () => {
    const log = AppendLog.openRepaired(join(dir, "log.jsonl"));
    await log.append(title("a"));
    await expect(log.sync()).resolves.toBeUndefined();
    await log.close();
  });
});

describe("openLogForAppend", () => {
  it("cuts a torn tail so the next record starts on a line of its own", async () => {
    const path = join(dir, "log.jsonl");
    await writeFile(path, `${line(title("a"))}{"kind":"tit`);
    const { log, read } = await openLogForAppend(path);
    expect(read.tornTail).not.toBeNull();
    await log.append(title("b"));
    await log.close();
    const again = await readLog(path);
    expect(again.records.map((r) => (r.kind === "title" ? r.title : ""))).toEqual(["a", "b"]);
    expect(again.damage).toEqual([]);
    expect(again.tornTail).toBeNull();
  });

  it("creates a missing log", async () => {
    const path = join(dir, "new.jsonl");
    const { log, read } = await openLogForAppend(path);
    expect(read.records).toEqual([]);
    await log.append(title("a"));
    await log.close();
    expect((await readLog(path)).records).toHaveLength(1);
  });

  it("keeps damaged lines on disk (append-only) while reporting them", async () => {
    const path = join(dir, "log.jsonl");
    await writeFile(path, line(title("a")));
    await appendFile(path, "garbage\n");
    const { log, read } = await openLogForAppend(path);
    expect(read.damage).toHaveLength(1);
    await log.close();
    expect(await readFile(path, "utf8")).toContain("garbage\n");
  });
});
