// acp.overhead: what the ACP path adds to each round of a turn, against the same turn run on
// the in-process engine in the same process (the baseline). Workload: a zero-latency
// ScriptedModel, ROUNDS rounds of one Read of a small file, bypass mode. The ACP path is this
// package's agent on the main thread and the ACP SDK's own client (testkit's fake editor) in a
// worker thread, over ndjson on a MessagePort byte pipe (every message encoded and decoded as
// on stdio, without the OS pipe); the editor takes every update. Runs alternate between the
// two paths, after one warm-up of each. Prints, per round, medians over the runs:
//   acp.overhead            wall time
//   acp.overheadCpu         CPU time of the main thread (the engine and the agent: the
//                           editor's own decoding is not in it, as in an editor's process)
//   acp.overheadCpuProcess  CPU time of the whole process (the editor's thread included)
// Run: pnpm --filter @z-engine/acp bench
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { MessageChannel, Worker } from "node:worker_threads";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createEngine } from "@z-engine/engine";
import { createTestEngine, reply } from "@z-engine/testkit";
import { createAcpAgent } from "../src/index.js";
import { portStreams } from "./port-stream.js";

const ROUNDS = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SESSION = { mode: "bypass", maxTurns: ROUNDS + 10 } as const;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};

/** CPU time of this process's main thread so far, in ms (Linux's schedstat). */
const mainThreadCpu = () =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;

const t = await createTestEngine({
  createEngine,
  files: { "README.md": "# bench\n" },
  script: [],
  engine: { headless: true },
});
const file = t.repo.path("README.md");
const script = () => [
  ...Array.from({ length: ROUNDS - 1 }, () => reply.toolCall("Read", { file_path: file })),
  reply.text("done"),
];

// The agent here, the editor in a worker: one channel for the protocol's bytes, one to drive it.
const bytes = new MessageChannel();
const control = new MessageChannel();
const app = createAcpAgent({ engine: t.engine, folder: t.repo.root, session: SESSION });
const pipe = portStreams(bytes.port1);
app.connect(ndJsonStream(pipe.writable, pipe.readable));
// tsx's loader is registered in the worker first (an `--import` does not reach a worker's
// entry on Node 20), then the editor's module is loaded.
const entry = new URL("./editor-worker.ts", import.meta.url).href;
const boot = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
const worker = new Worker(boot, {
  eval: true,
  workerData: { bytes: bytes.port2, control: control.port2, cwd: t.repo.root },
  transferList: [bytes.port2, control.port2],
});
const replies: string[] = [];
const waiting: Array<(message: string) => void> = [];
control.port1.on("message", (message: string) => {
  const next = waiting.shift();
  if (next) next(message);
  else replies.push(message);
});
/** The editor's next message (after `send`, when given). */
function editor(send?: string): Promise<string> {
  const next = new Promise<string>((resolve) => {
    const queued = replies.shift();
    if (queued !== undefined) resolve(queued);
    else waiting.push(resolve);
  });
  if (send) control.port1.postMessage(send);
  return next;
}
await editor(); // "up": initialized

/** A turn's wall time, the process's CPU time and the main thread's, in ms. */
interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
  readonly mainCpuMs: number;
}

/** Measures the turn `setUp` resolves with. */
async function measure(setUp: () => Promise<() => Promise<void>>): Promise<Sample> {
  const turn = await setUp();
  const cpu = process.cpuUsage();
  const main = mainThreadCpu();
  const started = performance.now();
  await turn();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, mainCpuMs: mainThreadCpu() - main };
}

/** One turn on the engine itself. */
function engineTurn(): Promise<Sample> {
  return measure(async () => {
    const session = await t.engine.createSession(t.repo.root, SESSION);
    t.model.push(...script());
    return async () => {
      const summary = await session.run("go");
      if (summary.outcome !== "completed") throw new Error(`engine turn ended ${summary.outcome}`);
      await session.close();
    };
  });
}

/** The same turn through ACP (`session/prompt` to its response, then `session/close`). */
function acpTurn(): Promise<Sample> {
  return measure(async () => {
    if ((await editor("new")) !== "ready") throw new Error("the editor opened no session");
    t.model.push(...script());
    return async () => {
      const answer = await editor("go");
      if (answer !== "done") throw new Error(`ACP turn ${answer}`);
    };
  });
}

await engineTurn();
await acpTurn();
const engine: Sample[] = [];
const acp: Sample[] = [];
for (let i = 0; i < RUNS; i++) {
  engine.push(await engineTurn());
  acp.push(await acpTurn());
}
control.port1.postMessage("close");
await worker.terminate();
await t.dispose();

/** Per round: the median over runs of the ACP turn's extra `key` beside its paired engine turn. */
const perRound = (values: number[]) => median(values) / ROUNDS;
const extra = (key: keyof Sample) => perRound(acp.map((s, i) => s[key] - (engine[i]?.[key] ?? 0)));
const base = (key: keyof Sample) => perRound(engine.map((s) => s[key]));
const line = (name: string, key: keyof Sample) =>
  `BENCH ${name} ${extra(key).toFixed(3)} ms baseline=${base(key).toFixed(3)} ratio=${(extra(key) / base(key)).toFixed(3)}`;
const list = (samples: Sample[], key: keyof Sample) =>
  samples.map((s) => (s[key] / ROUNDS).toFixed(3)).join(" ");
console.log(
  `workload: ${RUNS} turns per path of ${ROUNDS} rounds (one Read a round, zero-latency ScriptedModel, bypass), alternating, after one warm-up each; the editor in a worker thread; baseline: the engine's own round`,
);
for (const key of ["ms", "mainCpuMs", "cpuMs"] as const)
  console.log(`${key} per round: engine ${list(engine, key)} | acp ${list(acp, key)}`);
console.log(line("acp.overhead", "ms"));
console.log(line("acp.overheadCpu", "mainCpuMs"));
console.log(line("acp.overheadCpuProcess", "cpuMs"));
