// Benchmarks of @z-engine/store (design.md §7): store.replay against a bare JSON.parse of
// each line, store.append (1 KiB records, no fsync), store.list (2,000 sessions).
import { mkdtemp, open, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  type Message,
  type MessageId,
  newMessageId,
  newSessionId,
  newToolCallId,
  newTurnId,
  type ToolCallId,
} from "@z-engine/protocol";
import {
  AppendLog,
  FileSessionStore,
  type LogRecord,
  logRecord,
  metaFromReplay,
  readLog,
  ReplayFold,
  replay,
  writeMeta,
} from "../src/index.js";
import { findLastResumePoint } from "../src/resume-scan.js";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

// A deterministic pseudo-random source, so every run writes the same workload.
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const text = (bytes: number) =>
  "lorem ipsum dolor sit amet, ".repeat(Math.ceil(bytes / 28)).slice(0, bytes);

function mixRecord(i: number, lastCall: { id: ToolCallId }): LogRecord {
  const roll = random();
  const id = newMessageId();
  if (roll < 0.4) {
    // Skewed towards small outputs (mean about 2 KiB), as real tool results are.
    const size = 1024 + Math.floor(7 * 1024 * random() ** 6);
    const message: Message = {
      id,
      role: "user",
      content: [
        {
          type: "toolResult",
          toolUseId: lastCall.id,
          content: [{ type: "text", text: text(size) }],
          isError: false,
        },
      ],
    };
    return logRecord("message", { message }, i);
  }
  if (roll < 0.7) {
    lastCall.id = newToolCallId();
    const message: Message = {
      id,
      role: "assistant",
      content: [
        { type: "text", text: text(200 + Math.floor(400 * random())) },
        {
          type: "toolUse",
          id: lastCall.id,
          name: "Read",
          input: { file_path: `/src/file-${i}.ts` },
        },
      ],
    };
    return logRecord("message", { message }, i);
  }
  if (roll < 0.9) {
    const message: Message = {
      id,
      role: "user",
      content: [{ type: "text", text: text(100 + Math.floor(300 * random())) }],
    };
    return logRecord("message", { message }, i);
  }
  const usage = { input: 1200, output: 300, cacheRead: 800, cacheWrite: 0, costUsd: 0.004 };
  return roll < 0.95
    ? logRecord("usage", { usage, model: "bench-model" }, i)
    : logRecord(
        "turnStarted",
        { turnId: newTurnId(), userMessageId: id as MessageId, prompt: "go" },
        i,
      );
}

async function writeMixLog(path: string, count: number): Promise<void> {
  const log = AppendLog.openRepaired(path);
  const lastCall = { id: newToolCallId() };
  const batch: LogRecord[] = [];
  for (let i = 0; i < count; i++) {
    batch.push(mixRecord(i, lastCall));
    if (batch.length === 1000) log.appendSync(batch.splice(0));
  }
  if (batch.length > 0) log.appendSync(batch);
  await log.close();
}

// readLog's chunk size, given to both sides so that they read the file the same way.
const READ_CHUNK = 4 * 1024 * 1024;

/**
 * The baseline: read the file as readLog does (one reused buffer, 4 MiB at a time, each run
 * of whole lines decoded at once), then JSON.parse each line; `keep` also holds every value.
 */
async function baselineParse(path: string, keep: boolean): Promise<number> {
  const handle = await open(path, "r");
  const kept: unknown[] = [];
  let count = 0;
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(READ_CHUNK * 2);
    let position = 0;
    let carried = 0;
    while (position < size) {
      const { bytesRead } = await handle.read(buffer, carried, READ_CHUNK, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const end = carried + bytesRead;
      const newline = buffer.lastIndexOf(10, end - 1);
      if (newline < 0) throw new Error("the workload's lines are far shorter than a chunk");
      const text = buffer.toString("utf8", 0, newline + 1);
      for (let start = 0, at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", start)) {
        const value = JSON.parse(text.slice(start, at));
        if (keep) kept.push(value);
        count++;
        start = at + 1;
      }
      buffer.copyWithin(0, newline + 1, end);
      carried = end - newline - 1;
    }
  } finally {
    await handle.close();
  }
  return count + kept.length;
}

async function storeReplay(path: string): Promise<number> {
  const read = await readLog(path, { chunkBytes: READ_CHUNK });
  const result = replay(read.records);
  return result.workingSet.length + read.damage.length;
}

async function benchReplay(dir: string): Promise<void> {
  const path = join(dir, "replay.jsonl");
  await writeMixLog(path, 100_000);
  const size = (await stat(path)).size;
  console.log(
    `workload: replay of a 100,000-record log (${(size / 1e6).toFixed(0)} MB; 40% tool results 1-8 KiB, 30% assistant messages with tool calls, 20% user messages, 10% small records) vs JSON.parse of each line, the file read the same way (4 MiB chunks); the three interleaved, order rotated; median of 9 after 3 warm-ups`,
  );
  const runs: Record<"base" | "ours" | "kept", () => Promise<number>> = {
    base: () => baselineParse(path, false),
    ours: () => storeReplay(path),
    kept: () => baselineParse(path, true),
  };
  const times: Record<keyof typeof runs, number[]> = { base: [], ours: [], kept: [] };
  const names = Object.keys(runs) as (keyof typeof runs)[];
  for (let i = 0; i < 12; i++) {
    // Rotating the order spreads the garbage one run leaves for the next over all three.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length] as keyof typeof runs;
      const t = performance.now();
      await runs[name]();
      if (i >= 3) times[name].push(performance.now() - t);
    }
  }
  const o = median(times.ours);
  const b = median(times.base);
  const k = median(times.kept);
  console.log(
    `BENCH store.replay ${o.toFixed(1)} ms baseline=${b.toFixed(1)} ratio=${(o / b).toFixed(2)}`,
  );
  // Replay must keep what it parses (the working set). This second baseline keeps every parsed
  // value too: it separates the store's own work from the garbage collector's cost of holding
  // 100 MB of objects, which no replay can avoid.
  console.log(
    `BENCH store.replay-vs-kept ${o.toFixed(1)} ms baseline=${k.toFixed(1)} ratio=${(o / k).toFixed(2)}`,
  );
  // The heap a replay holds (its records and fold, after a full collection) against the
  // file's size: the target is at most 1.5 times.
  const h0 = heapNow();
  const read = await readLog(path, { chunkBytes: READ_CHUNK });
  const held = replay(read.records);
  const heap = heapNow() - h0;
  console.log(
    `workload: heap held by readLog + replay of the same log (${held.transcript.length} transcript records)`,
  );
  console.log(
    `BENCH store.replay-heap ${(heap / 1e6).toFixed(1)} MB baseline=${(size / 1e6).toFixed(1)} ratio=${(heap / size).toFixed(2)}`,
  );
}

async function benchAppend(dir: string): Promise<void> {
  const count = 100_000;
  const filler = text(1024 - 120);
  const record = logRecord("notice", { level: "info", code: "bench", message: filler }, 0);
  const line = JSON.stringify(record).length + 1;
  console.log(
    `workload: ${count} sequential awaited appends of ${line}-byte records, no fsync; median of 5 after 1 warm-up`,
  );
  const rates: number[] = [];
  for (let round = 0; round < 6; round++) {
    const log = AppendLog.openRepaired(join(dir, `append-${round}.jsonl`));
    const t = performance.now();
    for (let i = 0; i < count; i++) await log.append(record);
    const seconds = (performance.now() - t) / 1000;
    await log.close();
    if (round > 0) rates.push(count / seconds);
  }
  console.log(`BENCH store.append ${Math.round(median(rates))} records/s`);
}

async function benchList(dir: string): Promise<void> {
  const store = new FileSessionStore({ dataDir: dir });
  const sessions = 2000;
  for (let i = 0; i < sessions; i++) {
    const id = newSessionId();
    const records = [
      logRecord("session", { sessionId: id, projectRoot: "/project" }, i),
      logRecord("title", { title: `session ${i}` }, i),
    ];
    const meta = metaFromReplay(id, replay(records), 0, i);
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(store.sessionsDir, id), { recursive: true });
    await writeMeta(join(store.sessionsDir, id, "meta.json"), meta);
  }
  console.log(
    `workload: list ${sessions} session folders (readdir + meta.json each, sorted newest first); median of 9 after 2 warm-ups`,
  );
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    const list = await store.list();
    const ms = performance.now() - t;
    if (list.length !== sessions) throw new Error(`listed ${list.length}`);
    if (i >= 2) times.push(ms);
  }
  console.log(`BENCH store.list ${median(times).toFixed(1)} ms`);
}

const gc = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();
const heapNow = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/**
 * Writes a log of about `bytes` as a long session does: the mix above, compacted every 600
 * records (the messages since the last compaction dropped but the last 20), each compaction
 * followed by the resume point the file session writes. Returns the records after the last.
 */
async function writeCompactedLog(path: string, bytes: number): Promise<number> {
  const log = AppendLog.openRepaired(path);
  const fold = new ReplayFold({ rebase: true });
  const lastCall = { id: newToolCallId() };
  let batch: LogRecord[] = [];
  let since = 0;
  const flush = () => {
    for (const record of batch) fold.apply(record);
    log.appendSync(batch);
    batch = [];
  };
  // Past `bytes`, 300 more records without a compaction: the working set's growing tail.
  for (let i = 0; log.size < bytes || since < 300; i++) {
    batch.push(mixRecord(i, lastCall));
    if (++since < 600 || log.size >= bytes) {
      if (batch.length >= 1000) flush();
      continue;
    }
    flush();
    const ws = fold.workingSet();
    // Never split a tool call from its result: keep from a plain user message on.
    let keepFrom = ws.length - 20;
    while (keepFrom > 0 && ws[keepFrom]?.content[0]?.type !== "text") keepFrom--;
    const dropped = ws.slice(0, Math.max(1, keepFrom)).map((m) => m.id);
    const summary: Message = {
      id: newMessageId(),
      role: "user",
      content: [{ type: "text", text: text(4000) }],
    };
    const compaction = {
      trigger: "auto" as const,
      summary,
      droppedMessageIds: dropped,
      tokensBefore: 200_000,
      tokensAfter: 20_000,
    };
    batch.push(logRecord("compaction", { compaction }, i));
    flush();
    batch.push(fold.resumePoint(i));
    since = 0;
  }
  flush();
  await log.close();
  return since;
}

/**
 * store.resume: open a 1 GB log whose last compaction is near its end. The baseline is the
 * floor of any resume: reading and JSON.parse-and-keep of the lines from the last resume
 * point on (the bytes the model will see), the same file, the same run.
 */
async function benchResume(dir: string): Promise<void> {
  const store = new FileSessionStore({ dataDir: join(dir, "resume") });
  const created = await store.create({ projectRoot: "/p" });
  await created.close();
  const path = created.logPath;
  const gb = Number(process.env.ZENG_BENCH_RESUME_BYTES ?? 1e9);
  const after = await writeCompactedLog(path, gb);
  const size = (await stat(path)).size;
  const point = (await findLastResumePoint(path)) ?? 0;
  console.log(
    `workload: open a ${(size / 1e9).toFixed(2)} GB log (the replay mix, compacted every 600 records) whose last compaction is at ${((100 * point) / size).toFixed(2)}% (${after} records after it) vs read + JSON.parse-and-keep of the lines from there on; median of 7 after 2 warm-ups`,
  );
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 9; i++) {
    let t = performance.now();
    const opened = await store.open(created.id);
    const o = performance.now() - t;
    await opened.session.close();
    t = performance.now();
    const kept = await tailParse(path, point);
    const b = performance.now() - t;
    if (kept.length === 0) throw new Error("nothing after the resume point");
    if (i >= 2) {
      ours.push(o);
      base.push(b);
    }
  }
  const o = median(ours);
  const b = median(base);
  console.log(
    `BENCH store.resume ${o.toFixed(1)} ms baseline=${b.toFixed(1)} ratio=${(o / b).toFixed(2)}`,
  );
  // Heap held by an open session (after a full collection), against the working set's bytes
  // as JSON; the parse-and-keep of the same lines, measured the same way, is printed beside it.
  let h0 = heapNow();
  const opened = await store.open(created.id);
  const held = heapNow() - h0;
  const wsBytes = JSON.stringify(opened.session.workingSet()).length;
  await opened.session.close();
  h0 = heapNow();
  const kept = await tailParse(path, point);
  const keptHeap = heapNow() - h0;
  console.log(
    `workload: heap held by the open session vs the working set's JSON bytes (${(wsBytes / 1e6).toFixed(2)} MB); parse-and-keep of the lines from the resume point on holds ${(keptHeap / 1e6).toFixed(2)} MB (${kept.length} records)`,
  );
  console.log(
    `BENCH store.resume-heap ${(held / 1e6).toFixed(2)} MB baseline=${(wsBytes / 1e6).toFixed(2)} ratio=${(held / wsBytes).toFixed(2)}`,
  );
}

async function tailParse(path: string, from: number): Promise<unknown[]> {
  const handle = await open(path, "r");
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(size - from);
    await handle.read(buffer, 0, size - from, from);
    const kept: unknown[] = [];
    const lines = buffer.toString("utf8");
    for (let start = 0, at = lines.indexOf("\n"); at >= 0; at = lines.indexOf("\n", start)) {
      kept.push(JSON.parse(lines.slice(start, at)));
      start = at + 1;
    }
    return kept;
  } finally {
    await handle.close();
  }
}

/**
 * The engine reads the working set up to three times a round. `workingSet()` reads the fold
 * kept as records are appended; the baseline is `snapshot().workingSet`, the whole replay
 * (transcript, state, resume report) built each time, as the engine read it before.
 */
async function benchWorkingSet(dir: string): Promise<void> {
  const store = new FileSessionStore({ dataDir: join(dir, "working-set") });
  const session = await store.create({ projectRoot: "/project" });
  const lastCall = { id: newToolCallId() };
  for (let i = 0; i < 2000; i++) await session.append(mixRecord(i, lastCall));
  const rounds = 200;
  console.log(
    `workload: a session of 2,000 records, then ${rounds} rounds of 3 appends (assistant, tool result, usage) and 3 working-set reads each; median of 7 after 2 warm-ups`,
  );
  const round = async (read: () => readonly Message[]) => {
    const t = performance.now();
    let n = 0;
    for (let i = 0; i < rounds; i++) {
      for (let k = 0; k < 3; k++) await session.append(mixRecord(i, lastCall));
      for (let k = 0; k < 3; k++) n += read().length;
    }
    if (n === 0) throw new Error("empty working set");
    return ((performance.now() - t) * 1000) / rounds;
  };
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 9; i++) {
    const o = await round(() => session.workingSet());
    const b = await round(() => session.snapshot().workingSet);
    if (i >= 2) {
      ours.push(o);
      base.push(b);
    }
  }
  await session.close();
  const o = median(ours);
  const b = median(base);
  console.log(
    `BENCH store.workingset-round ${o.toFixed(1)} us baseline=${b.toFixed(1)} ratio=${(o / b).toFixed(2)}`,
  );
}

const dir = await mkdtemp(join(tmpdir(), "zeng-store-bench-"));
try {
  // `--only NAME` runs one figure (workingset, resume, replay, append, list).
  const only = process.argv[process.argv.indexOf("--only") + 1];
  const figures: Record<string, (dir: string) => Promise<void>> = {
    workingset: benchWorkingSet,
    resume: benchResume,
    replay: benchReplay,
    append: benchAppend,
    list: benchList,
  };
  for (const [name, run] of Object.entries(figures))
    if (!process.argv.includes("--only") || only === name) await run(dir);
} finally {
  await rm(dir, { recursive: true, force: true });
}
