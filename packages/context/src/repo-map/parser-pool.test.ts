import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ParseJob } from "./parse-jobs.js";
import { ParserPool } from "./parser-pool.js";

const SCRIPT = new URL("../../dist/repo-map/repo-map-worker.js", import.meta.url);
let dir: string;
const pools: ParserPool[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "repomap-pool-"));
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await rm(dir, { recursive: true, force: true });
});

const jobs: ParseJob[] = Array.from({ length: 30 }, (_, i) => ({
  language: i % 2 === 0 ? "typescript" : "python",
  text: i % 2 === 0 ? `export function ts${i}(): void {}\n` : `def py${i}():\n    pass\n`,
}));

function pool(script: URL, helpers: number, alsoHere = true, deadlineMs?: number): ParserPool {
  const p = new ParserPool(script, helpers, alsoHere, deadlineMs);
  pools.push(p);
  return p;
}

describe("ParserPool", { timeout: 60_000 }, () => {
  it("spreads files over parser threads and returns each file's tags in order", async () => {
    const result = await pool(SCRIPT, 2).parse(jobs);
    expect(result.problems).toEqual([]);
    expect(result.tags.map((t) => t?.defs[0]?.name)).toEqual(
      jobs.map((_, i) => (i % 2 === 0 ? `ts${i}` : `py${i}`)),
    );
  });

  it("with this thread only handing out files, the parser threads parse them all, in order", async () => {
    const result = await pool(SCRIPT, 2, false).parse(jobs);
    expect(result.problems).toEqual([]);
    expect(result.tags.map((t) => t?.defs[0]?.name)).toEqual(
      jobs.map((_, i) => (i % 2 === 0 ? `ts${i}` : `py${i}`)),
    );
  });

  it("with this thread only handing out files, a failed thread's files are parsed here", async () => {
    const broken = join(dir, "broken.js");
    await writeFile(broken, "throw new Error('no parser here');\n");
    const result = await pool(pathToFileURL(broken), 1, false).parse(jobs);
    expect(result.tags.every((t) => t !== null && t.defs.length === 1)).toBe(true);
    expect(result.problems.some((p) => p.includes("parser thread failed"))).toBe(true);
  });

  it("once the parser threads run, they take a small parse too (the last chunk of a build)", async () => {
    const batches = join(dir, "batches.txt");
    const counting = join(dir, "counting.mjs");
    await writeFile(
      counting,
      `import { appendFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
await import(${JSON.stringify(SCRIPT.href)});
parentPort.on("message", () => appendFileSync(${JSON.stringify(batches)}, "batch\\n"));
`,
    );
    const p = pool(pathToFileURL(counting), 1, false);
    await p.parse(jobs);
    const before = (await readFile(batches, "utf8")).trim().split("\n").length;
    const small = await p.parse(jobs.slice(0, 3));
    expect(small.tags.map((t) => t?.defs[0]?.name)).toEqual(["ts0", "py1", "ts2"]);
    const after = (await readFile(batches, "utf8")).trim().split("\n").length;
    expect(after).toBeGreaterThan(before);
  });

  it("a thread that fails after answering is replaced for the later batches", async () => {
    // A parser thread that notes its start and exits at its third batch (two are sent at once,
    // the third after the first is answered).
    const starts = join(dir, "starts.txt");
    const dying = join(dir, "dying.mjs");
    await writeFile(
      dying,
      `import { appendFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
appendFileSync(${JSON.stringify(starts)}, "start\\n");
await import(${JSON.stringify(SCRIPT.href)});
let batches = 0;
parentPort.on("message", () => { if (++batches === 3) process.exit(3); });
`,
    );
    const many: ParseJob[] = Array.from({ length: 120 }, (_, i) => ({
      language: "typescript",
      text: `export function ts${i}(): void {}\n`,
    }));
    const result = await pool(pathToFileURL(dying), 1, false).parse(many);
    expect(result.tags.map((t) => t?.defs[0]?.name)).toEqual(many.map((_, i) => `ts${i}`));
    expect(result.problems.some((p) => p.includes("parser thread failed"))).toBe(true);
    const started = (await readFile(starts, "utf8")).trim().split("\n").length;
    expect(started).toBeGreaterThan(1);
  });

  it("stops a thread that does not answer, leaves its batch's files out and goes on", async () => {
    // A parser thread that hangs on the batch holding one file: from its answer for that batch
    // on, it answers nothing. Every other batch is answered at the thread's own pace, so the
    // deadline is long enough for a loaded machine (it counts the thread's start too).
    const hanging = join(dir, "hanging.mjs");
    await writeFile(
      hanging,
      `import { parentPort } from "node:worker_threads";
const post = parentPort.postMessage.bind(parentPort);
let hung = false;
parentPort.postMessage = (answer) => {
  hung ||= JSON.stringify(answer).includes("hangsHere");
  if (!hung) post(answer);
};
await import(${JSON.stringify(SCRIPT.href)});
`,
    );
    const poisoned = jobs.map((job, i) =>
      i === 15
        ? { language: "typescript" as const, text: "export function hangsHere() {}\n" }
        : job,
    );
    const started = Date.now();
    const result = await pool(pathToFileURL(hanging), 1, false, 3_000).parse(poisoned);
    // Bounded by the deadline, not by the thread.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.problems.some((p) => p.includes("stopped (no answer within 3 s)"))).toBe(true);
    expect(result.tags[15]).toBeNull();
    const parsed = result.tags.filter((t) => t !== null).length;
    // Left out: the hung batch and the one queued behind it (at most two batches of 8); the
    // thread that replaced it parsed the rest.
    expect(parsed).toBeGreaterThanOrEqual(jobs.length - 16);
    expect(parsed).toBeLessThan(jobs.length);
    expect(result.tags[jobs.length - 1]?.defs[0]?.name).toBe(`py${jobs.length - 1}`);
  });

  it("parses a failed thread's files on this thread and says so", async () => {
    const broken = join(dir, "broken.js");
    await writeFile(broken, "throw new Error('no parser here');\n");
    const result = await pool(pathToFileURL(broken), 1).parse(jobs);
    expect(result.tags.every((t) => t !== null && t.defs.length === 1)).toBe(true);
    expect(result.problems.some((p) => p.includes("parser thread failed"))).toBe(true);
  });

  it("reads a late text once, as its file's turn comes; a file that cannot be read gets null tags", async () => {
    const reads: number[] = [];
    const late: ParseJob[] = jobs.map((job, i) => ({
      language: job.language,
      text: () => {
        reads.push(i);
        return i % 5 === 0 ? null : (job.text as string);
      },
    }));
    expect(reads).toEqual([]);
    const result = await pool(SCRIPT, 1).parse(late);
    expect([...reads].sort((a, b) => a - b)).toEqual(jobs.map((_, i) => i));
    expect(result.tags.map((t) => t?.defs[0]?.name ?? null)).toEqual(
      jobs.map((_, i) => (i % 5 === 0 ? null : i % 2 === 0 ? `ts${i}` : `py${i}`)),
    );
  });

  it("a stopped parse rejects with the signal's reason", async () => {
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(pool(SCRIPT, 1).parse(jobs, controller.signal)).rejects.toThrow("stop");
  });
});
