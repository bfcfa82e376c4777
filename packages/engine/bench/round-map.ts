// engine.roundMap (issue 45): rounds two and three of a five-request session with the repo
// map on, over the tools' own time, beside the same session with the map off (the baseline,
// measured in the same run). A zero-latency ScriptedModel, one Read a round, in a 40-file
// TypeScript project, in two shapes: a fresh data folder (the first build starts when the
// first request goes out; a small project's first tool results wait for it, so round one
// carries it) and a second session over the first one's cache (the map joins request one
// from the snapshot; a build refreshes the snapshot from round two). Also prints the request
// each shape's map first joined. Run: pnpm --filter @z-engine/engine exec tsx bench/round-map.ts
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_MAP_HEADER } from "@z-engine/context";
import { resolvePaths } from "@z-engine/config";
import type { EventEnvelope, ModelClient, ModelRequest, StreamOptions } from "@z-engine/protocol";
import { createFixtureRepo, type FixtureFiles, reply, ScriptedModel } from "@z-engine/testkit";
import { createEngine } from "../src/index.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const FILES = 40;

const files: FixtureFiles = Object.fromEntries(
  Array.from({ length: FILES }, (_, i) => [
    `src/m${i}.ts`,
    `import { helper${(i + 1) % FILES} } from "./m${(i + 1) % FILES}";\nexport function helper${i}(n: number): number {\n  return n > 0 ? helper${(i + 1) % FILES}(n - 1) : ${i};\n}\nexport class Thing${i} {\n  value(): number {\n    return helper${i}(2);\n  }\n}\n`,
  ]),
);

interface Sample {
  /** Gaps between requests, minus the Read call's own time, ms. */
  readonly rounds: number[];
  /** The 1-based request whose messages first carried the map (0: none). */
  readonly mapAt: number;
}

/** One session of five requests (four Reads, then an answer) with the map on or off. */
async function session(root: string, home: string, map: boolean): Promise<Sample> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  const script = [
    ...[1, 2, 3, 4].map((i) => reply.toolCall("Read", { file_path: `src/m${i}.ts` })),
    reply.text("done"),
  ];
  const scripted = new ScriptedModel(script);
  const arrivals: number[] = [];
  const model: ModelClient = {
    stream: (request: ModelRequest, options?: StreamOptions) => {
      arrivals.push(performance.now());
      return scripted.stream(request, options);
    },
  };
  const fast = new ScriptedModel([reply.text("Bench")]);
  const toolMs: number[] = [];
  const engine = await createEngine({
    paths: resolvePaths(env),
    env,
    onEvent: (e: EventEnvelope) => {
      if (e.event.type === "toolFinished") toolMs.push(e.event.durationMs);
    },
    clientFactory: ({ role }) => (role === "fast" ? fast : model),
    catalogSource: "off",
    homeDir: home,
    repoMap: map,
  });
  const handle = await engine.createSession(root, { mode: "bypass" });
  const summary = await handle.run("go");
  if (summary.outcome !== "completed") throw new Error(`bench session ended ${summary.outcome}`);
  if (map) await handle.repoMapIdle();
  await engine.shutdown();
  const rounds = arrivals.slice(1).map((t, i) => t - (arrivals[i] as number) - (toolMs[i] ?? 0));
  const mapAt =
    scripted.requests.findIndex((r) => JSON.stringify(r.messages).includes(REPO_MAP_HEADER)) + 1;
  return { rounds, mapAt };
}

/** A fresh project and home: the map-off baseline, a fresh map session, then a cached one. */
async function once(): Promise<{ off: Sample; fresh: Sample; cached: Sample }> {
  const repo = await createFixtureRepo({ files });
  const homes = await Promise.all([0, 1].map(() => mkdtemp(join(tmpdir(), "zeng-bench-"))));
  try {
    const off = await session(repo.root, homes[0] as string, false);
    const fresh = await session(repo.root, homes[1] as string, true);
    const cached = await session(repo.root, homes[1] as string, true);
    return { off, fresh, cached };
  } finally {
    await repo.dispose();
    for (const home of homes) await rm(home, { recursive: true, force: true });
  }
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
await once(); // warm-up
const samples: Array<Awaited<ReturnType<typeof once>>> = [];
for (let i = 0; i < RUNS; i++) samples.push(await once());
type Shape = "off" | "fresh" | "cached";
const round = (shape: Shape, i: number) => median(samples.map((s) => s[shape].rounds[i] ?? 0));
const rounds = (shape: Shape) => [0, 1, 2, 3].map((i) => round(shape, i).toFixed(1)).join(", ");
console.log(
  `workload: ${FILES}-file TypeScript project, zero-latency ScriptedModel, 5 requests (4 Reads, an answer), bypass mode; map off (baseline), map on in a fresh data folder, map on in a second session over its cache; ${RUNS} runs after a warm-up, medians; round gaps minus the Read's own time (ms): off ${rounds("off")}; fresh ${rounds("fresh")}; cached ${rounds("cached")}`,
);
for (const shape of ["fresh", "cached"] as const) {
  for (const i of [1, 2]) {
    const value = round(shape, i);
    const base = round("off", i);
    console.log(
      `BENCH engine.roundMap.${shape}.round${i + 1} ${value.toFixed(2)} ms baseline=${base.toFixed(2)} ratio=${(value / Math.max(base, 0.01)).toFixed(2)} over=${(value - base).toFixed(2)}`,
    );
  }
}
for (const shape of ["fresh", "cached"] as const)
  console.log(
    `${shape}: the map first joined request ${samples.map((s) => s[shape].mapAt || "never").join(", ")}`,
  );
