// agentSdk.firstMessage (issue 40): a host on @z-engine/agent-sdk (built dist, unbundled),
// in a fresh node process, from query() to the first `system` message and to the first
// model request at the fake provider (bench/first-message-child.mjs), beside the same
// prompt through `zeng -p` (apps/cli's bundle, spawned with the provider in this process:
// from spawn to the first request). The official Agent SDK is not run (its binary is not
// run here at all). Run: pnpm --filter @z-engine/agent-sdk bench
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { reply } from "@z-engine/testkit";
import { type World, world } from "../test/world.js";

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, "first-message-child.mjs");
const ZENG = join(here, "..", "..", "..", "apps", "cli", "dist", "zeng.cjs");

interface Figures {
  readonly importMs: number;
  readonly firstMessageMs: number;
  readonly firstRequestMs: number;
  readonly rssMb: number;
}

/** Runs node with `args` until it exits; its stdout (rejects on a non-zero exit). */
async function spawnNode(args: string[], env: Record<string, string>, cwd: string) {
  return (await run(process.execPath, args, { env, cwd })).stdout;
}

/** Runs `run` in a fresh world (fixture repo, temporary home, fake provider), then disposes it. */
async function inWorld<T>(run: (w: World) => Promise<T>): Promise<T> {
  const w = await world();
  try {
    return await run(w);
  } finally {
    await w.dispose();
  }
}

// The child starts its own provider in process (its ZENGINE_BASE_URL wins).
const sdkOnce = () =>
  inWorld(async (w) => {
    const out = await spawnNode([CHILD], w.env, w.repo.root);
    return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Figures;
  });

const zengOnce = () =>
  inWorld(async (w) => {
    w.provider.push(reply.text("hello"));
    let arrived = 0;
    const request = w.provider.requestArrived(0).then(() => {
      arrived = performance.now();
    });
    const started = performance.now();
    const done = spawnNode([ZENG, "-p", "hi"], w.env, w.repo.root);
    await request;
    await done;
    return arrived - started;
  });

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
await sdkOnce(); // warm-up
await zengOnce();
const sdk: Figures[] = [];
const zeng: number[] = [];
for (let i = 0; i < RUNS; i++) {
  sdk.push(await sdkOnce());
  zeng.push(await zengOnce());
}
const base = median(zeng);
const line = (name: string, value: number) =>
  `BENCH ${name} ${value.toFixed(0)} ms baseline=${base.toFixed(0)} ratio=${(value / base).toFixed(2)}`;
console.log(
  `workload: a fresh node process imports @z-engine/agent-sdk's dist (firstMessageImport), starts the fake provider in process, then query({ prompt: "hi", options: { cwd, env } }) in a one-file git repo until the first system message (firstMessage) and until the provider receives the first request (firstRequest); rss: the child's peak RSS; ${RUNS} runs after a warm-up, medians; baseline: \`zeng -p hi\` (apps/cli bundle) from spawn to its first request, the same repo and provider`,
);
console.log(line("agentSdk.firstMessage", median(sdk.map((r) => r.firstMessageMs))));
console.log(line("agentSdk.firstRequest", median(sdk.map((r) => r.firstRequestMs))));
console.log(line("agentSdk.firstMessageImport", median(sdk.map((r) => r.importMs))));
console.log(`BENCH agentSdk.rss ${median(sdk.map((r) => r.rssMb)).toFixed(0)} MB`);
