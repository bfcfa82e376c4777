// BENCH agents.spawn: from the main agent's Agent tool call to the subagent's first model
// request, with a zero-latency ScriptedModel, so what is measured is the engine's own work
// (the gate, the agent's catalog lookup, its transcript, tools and request).
// Run: pnpm --filter @z-engine/engine bench (or tsx bench/agents.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import type { EventEnvelope, ModelRequest } from "@z-engine/protocol";
import { createFixtureRepo, reply, ScriptedModel, when } from "@z-engine/testkit";
import { createEngine } from "../src/index.js";

const SPAWNS = 20;
const MARK = "BENCH-AGENT-MARKER";
const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);

async function oneSession(): Promise<number[]> {
  const repo = await createFixtureRepo({
    files: {
      "README.md": "# bench\n",
      ".z-engine/agents/bencher.md": `---\nname: bencher\ndescription: Bench agent\ntools: Read\n---\n${MARK}\n`,
    },
  });
  const home = await mkdtemp(join(tmpdir(), "zeng-bench-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  const model = new ScriptedModel([
    ...Array.from({ length: SPAWNS }, (_, n) =>
      when(
        (r) => !isSub(r),
        reply.toolCall("Agent", {
          description: `b${n}`,
          prompt: `task ${n}`,
          subagent_type: "bencher",
        }),
      ),
    ),
    when((r) => !isSub(r), reply.text("done")),
    ...Array.from({ length: SPAWNS }, () => when(isSub, reply.text("report"))),
  ]);
  const fast = new ScriptedModel([reply.text("Bench")]);
  const calls: number[] = [];
  const firsts: number[] = [];
  const engine = await createEngine({
    paths: resolvePaths(env),
    env,
    onEvent: (e: EventEnvelope) => {
      if (e.event.type === "toolStarted" && e.event.toolName === "Agent")
        calls.push(performance.now());
      if (e.event.type === "assistantStarted" && e.agentId) firsts.push(performance.now());
    },
    clientFactory: ({ role }) => (role === "fast" ? fast : model),
    catalogSource: "off",
    homeDir: home,
    checkpoints: false,
  });
  const session = await engine.createSession(repo.root, { mode: "bypass", maxTurns: SPAWNS + 2 });
  const summary = await session.run("go");
  if (summary.outcome !== "completed")
    throw new Error(`bench session ended ${summary.outcome}: ${summary.reason}`);
  await engine.shutdown();
  await repo.dispose();
  await rm(home, { recursive: true, force: true });
  return calls.map((t, i) => (firsts[i] ?? Number.NaN) - t);
}

await oneSession(); // warm-up
const all: number[] = [];
for (let i = 0; i < 3; i++) all.push(...(await oneSession()));
all.sort((a, b) => a - b);
const median = all[Math.floor(all.length / 2)] ?? Number.NaN;
console.log(
  `workload: 3 sessions of ${SPAWNS} foreground Agent calls each (zero-latency ScriptedModel, a custom agent with one tool, bypass mode), after one warm-up session; from the Agent call's toolStarted to the subagent's assistantStarted; median of ${all.length}`,
);
console.log(`BENCH agents.spawn ${median.toFixed(2)} ms`);
