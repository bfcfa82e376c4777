// acp.overhead: what the ACP path adds to each round of a turn, against the same turn run on
// the in-process engine in the same process (the baseline). Workload: a zero-latency
// ScriptedModel, ROUNDS rounds of one Read of a small file, bypass mode; the ACP path is
// this package's agent and the ACP SDK's own client over ndjson on in-memory byte streams
// (every message encoded and decoded as on stdio, without the OS pipe), the client taking
// every update. Runs alternate between the two paths, after one warm-up of each.
// Run: pnpm --filter @z-engine/acp bench
import { performance } from "node:perf_hooks";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { createEngine } from "@z-engine/engine";
import { connectAcpTestClient, createTestEngine, reply } from "@z-engine/testkit";
import { createAcpAgent } from "../src/index.js";

const ROUNDS = 100;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
};
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SESSION = { mode: "bypass", maxTurns: ROUNDS + 10 } as const;

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

// The ACP agent and the SDK's client, joined by two in-memory byte pipes.
const toClient = new TransformStream<Uint8Array, Uint8Array>();
const toAgent = new TransformStream<Uint8Array, Uint8Array>();
const app = createAcpAgent({ engine: t.engine, folder: t.repo.root, session: SESSION });
app.connect(ndJsonStream(toClient.writable, toAgent.readable));
const editor = connectAcpTestClient(ndJsonStream(toAgent.writable, toClient.readable));
await editor.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });

/** A turn's wall time and the process's CPU time (user + system) over it, in ms. */
interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
}

/** Measures `turn` (started once its set-up resolved). */
async function measure(setUp: () => Promise<() => Promise<void>>): Promise<Sample> {
  const turn = await setUp();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await turn();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
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
    const { sessionId } = await editor.agent.request("session/new", {
      cwd: t.repo.root,
      mcpServers: [],
    });
    t.model.push(...script());
    return async () => {
      const response = await editor.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "go" }],
      });
      if (response.stopReason !== "end_turn")
        throw new Error(`ACP turn ended ${response.stopReason}`);
      await editor.agent.request("session/close", { sessionId });
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
await editor.close();
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
  `workload: ${RUNS} turns per path of ${ROUNDS} rounds (one Read a round, zero-latency ScriptedModel, bypass), alternating, after one warm-up each; baseline: the engine's own round`,
);
console.log(`wall per round (ms): engine ${list(engine, "ms")} | acp ${list(acp, "ms")}`);
console.log(`cpu per round (ms): engine ${list(engine, "cpuMs")} | acp ${list(acp, "cpuMs")}`);
console.log(line("acp.overhead", "ms"));
console.log(line("acp.overheadCpu", "cpuMs"));
