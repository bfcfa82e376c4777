// One bench session of round.ts and round-traced.ts: a 200-round session with a zero-latency
// ScriptedModel and a trivial read-only tool; returns each round's duration in ms.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import type { EventEnvelope } from "@z-engine/protocol";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { defineTool, textOutput } from "@z-engine/tools";
import { z } from "zod";
import { createEngine } from "../src/index.js";

export const ROUNDS = 200;

const noop = defineTool({
  name: "Noop",
  description: "Does nothing.",
  inputSchema: z.strictObject({ n: z.number() }),
  isReadOnly: () => true,
  call: async (input) => textOutput(`ok ${input.n}`),
});

/** Runs one session; each round from its assistantStarted to the next one, in ms. */
export async function oneSession(): Promise<number[]> {
  const repo = await createFixtureRepo({ files: { "README.md": "# bench\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-bench-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  const script = [
    ...Array.from({ length: ROUNDS - 1 }, (_, n) => reply.toolCall("Noop", { n })),
    reply.text("done"),
  ];
  const model = new ScriptedModel(script);
  const fast = new ScriptedModel([reply.text("Bench")]);
  const starts: number[] = [];
  const engine = await createEngine({
    paths: resolvePaths(env),
    env,
    onEvent: (e: EventEnvelope) => {
      if (e.event.type === "assistantStarted") starts.push(performance.now());
    },
    clientFactory: ({ role }) => (role === "fast" ? fast : model),
    catalogSource: "off",
    tools: [noop],
    homeDir: home,
  });
  const session = await engine.createSession(repo.root, { mode: "bypass", maxTurns: ROUNDS + 1 });
  const summary = await session.run("go");
  const end = performance.now();
  if (summary.outcome !== "completed")
    throw new Error(`bench session ended ${summary.outcome}: ${summary.reason}`);
  await engine.shutdown();
  await repo.dispose();
  await rm(home, { recursive: true, force: true });
  // Round i lasts from its assistantStarted to the next one; the first round also takes the
  // turn's checkpoint (git), so it is left out.
  const rounds = starts.slice(1).map((t, i) => (starts[i + 2] ?? end) - t);
  return rounds.slice(0, -1);
}

/** The `p` quantile of sorted values. */
export const q = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
