// 100 sessions in one process (issue 48): what an idle session costs in memory, and what
// those idle sessions cost a session that works. One engine opens 100 sessions on one
// project, each runs a short turn (5 rounds) and stays open; the memory after a full GC,
// minus the memory before, divided by 100, is the figure. Then one session runs a 60-round
// turn among the 100 idle ones, beside the same turn in an engine with no other session
// open (the baseline), alternated over several runs. The model is a zero-latency scripted
// one answering from the request alone (a tool call until the turn has its rounds, then
// text), so many sessions can share it. Run: pnpm --filter @z-engine/engine bench
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { resolvePaths } from "@z-engine/config";
import type { EventEnvelope, ModelClient, ModelRequest, StreamOptions } from "@z-engine/protocol";
import { createFixtureRepo, type FixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { defineTool, textOutput } from "@z-engine/tools";
import { z } from "zod";
import { createEngine, type Engine } from "../src/index.js";

const SESSIONS = 100;
const IDLE_ROUNDS = 5;
const BUSY_ROUNDS = 60;
const RUNS = 5;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const noop = defineTool({
  name: "Noop",
  description: "Does nothing.",
  inputSchema: z.strictObject({ n: z.number() }),
  isReadOnly: () => true,
  call: async (input) => textOutput(`ok ${input.n}`),
});

/** Tool results since the turn's prompt: how many rounds the turn has had. */
function roundsSoFar(request: ModelRequest): number {
  let count = 0;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i];
    if (!message) break;
    const results = message.content.filter((b) => b.type === "toolResult").length;
    if (message.role === "user" && results === 0) break;
    count += results;
  }
  return count;
}

/** A model for many sessions at once: the request says how far its turn is. */
class RoundsModel implements ModelClient {
  constructor(private readonly rounds: (request: ModelRequest) => number) {}
  stream(request: ModelRequest, options?: StreamOptions) {
    const n = roundsSoFar(request);
    const next = n + 1 < this.rounds(request) ? reply.toolCall("Noop", { n }) : reply.text("done");
    return new ScriptedModel([next]).stream(request, options);
  }
}

interface World {
  readonly engine: Engine;
  readonly repo: FixtureRepo;
  readonly home: string;
  /** assistantStarted times of each session, by session id. */
  readonly starts: Map<string, number[]>;
}

async function world(): Promise<World> {
  const repo = await createFixtureRepo({ files: { "README.md": "# bench\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-bench-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  const starts = new Map<string, number[]>();
  // The turn's prompt: the last user message that carries no tool results (the last user
  // message of a later round is the previous round's results, which name no turn).
  const lastPrompt = (r: ModelRequest) =>
    JSON.stringify(
      r.messages.findLast(
        (m) => m.role === "user" && !m.content.some((b) => b.type === "toolResult"),
      )?.content ?? [],
    );
  const model = new RoundsModel((r) =>
    lastPrompt(r).includes("busy") ? BUSY_ROUNDS : IDLE_ROUNDS,
  );
  const fast = new RoundsModel(() => 1);
  const engine = await createEngine({
    paths: resolvePaths(env),
    env,
    onEvent: (e: EventEnvelope) => {
      if (e.event.type !== "assistantStarted") return;
      const list = starts.get(e.sessionId) ?? [];
      list.push(performance.now());
      starts.set(e.sessionId, list);
    },
    clientFactory: ({ role }) => (role === "fast" ? fast : model),
    catalogSource: "off",
    tools: [noop],
    homeDir: home,
  });
  return { engine, repo, home, starts };
}

async function dispose(w: World): Promise<void> {
  await w.engine.shutdown();
  await w.repo.dispose();
  await rm(w.home, { recursive: true, force: true });
}

function memory(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * One 60-round turn's rounds (ms), the first (the turn's checkpoint) and last left out. The
 * session has run a short turn first: a new session's repo map is built once, when its
 * second request goes out (one `git ls-files` and the map, 3-6 ms of CPU, 5-55 ms on this
 * loaded machine), the same alone as among 100 sessions; that start-up cost is not a
 * round's overhead, and as one round in 58 of each turn it alone made the p99.
 */
async function busyTurn(w: World): Promise<number[]> {
  const session = await w.engine.createSession(w.repo.root, {
    mode: "bypass",
    maxTurns: BUSY_ROUNDS + 1,
  });
  const warm = await session.run("warm");
  if (warm.outcome !== "completed") throw new Error(`warm-up turn ended ${warm.outcome}`);
  const summary = await session.run("busy");
  const end = performance.now();
  if (summary.outcome !== "completed") throw new Error(`busy turn ended ${summary.outcome}`);
  const starts = (w.starts.get(session.id) ?? []).slice(IDLE_ROUNDS);
  return starts
    .slice(1)
    .map((t, i) => (starts[i + 2] ?? end) - t)
    .slice(0, -1);
}

const q = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

// Memory per idle session.
const crowd = await world();
await busyTurn(crowd); // warm-up: every module loaded, caches built
const before = memory();
for (let i = 0; i < SESSIONS; i++) {
  const session = await crowd.engine.createSession(crowd.repo.root, { mode: "bypass" });
  const summary = await session.run(`idle ${i}`);
  if (summary.outcome !== "completed") throw new Error(`idle session ended ${summary.outcome}`);
}
const perSessionMb = (memory() - before) / SESSIONS / 2 ** 20;

// A working session among the idle ones, beside one alone, alternated.
const loaded: number[] = [];
const alone: number[] = [];
for (let run = 0; run < RUNS; run++) {
  loaded.push(...(await busyTurn(crowd)));
  const single = await world();
  await busyTurn(single); // its own warm-up turn, as the crowd had
  alone.push(...(await busyTurn(single)));
  await dispose(single);
}
await dispose(crowd);

const [l, a] = [sorted(loaded), sorted(alone)];
console.log(
  `workload: ${SESSIONS} sessions of one ${IDLE_ROUNDS}-round turn left open in one engine (zero-latency scripted model, one trivial tool call a round, bypass mode); then ${RUNS} runs of a ${BUSY_ROUNDS}-round turn (after a ${IDLE_ROUNDS}-round one in the same session) among them, alternated with the same turn in an engine of its own`,
);
console.log(
  `rounds among ${SESSIONS} idle (ms, ${l.length} rounds): p50 ${q(l, 0.5).toFixed(3)} p99 ${q(l, 0.99).toFixed(3)}; alone (${a.length} rounds): p50 ${q(a, 0.5).toFixed(3)} p99 ${q(a, 0.99).toFixed(3)}`,
);
console.log(`BENCH engine.sessions.concurrent ${perSessionMb.toFixed(3)} MB`);
for (const [name, p] of [
  ["p50", 0.5],
  ["p99", 0.99],
] as const)
  console.log(
    `BENCH engine.sessions.round${name} ${q(l, p).toFixed(3)} ms baseline=${q(a, p).toFixed(3)} ratio=${(q(l, p) / q(a, p)).toFixed(2)}`,
  );
