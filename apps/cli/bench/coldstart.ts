// cli.coldstart: from spawning `node dist/main.js -p hi` to the first request arriving at
// the fake provider (design.md §2, §7). Baseline: spawning `node -e 0` until it exits.
import { performance } from "node:perf_hooks";
import { reply, startFakeProvider } from "@z-engine/testkit";
import { benchHome, MAIN, median, run } from "./world.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 2;

async function once(): Promise<number> {
  const provider = await startFakeProvider({ script: [reply.text("hello")] });
  const world = await benchHome();
  try {
    const started = performance.now();
    let arrived = 0;
    const first = provider.requestArrived(0).then(() => {
      arrived = performance.now();
    });
    const done = run(
      [MAIN, "-p", "hi", "--output-format", "json"],
      world.env(provider),
      world.repo.root,
    );
    await Promise.race([first, done]);
    const result = await done;
    if (arrived === 0) throw new Error(`zeng made no request: ${result.stderr}`);
    if (result.code !== 0) throw new Error(`zeng exited ${result.code}: ${result.stderr}`);
    return arrived - started;
  } finally {
    await provider.close();
    await world.dispose();
  }
}

async function baseline(): Promise<number> {
  const started = performance.now();
  await run(["-e", "0"], { PATH: process.env.PATH ?? "" }, process.cwd());
  return performance.now() - started;
}

const samples: number[] = [];
const bases: number[] = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  const ms = await once();
  const base = await baseline();
  if (i >= WARMUP) {
    samples.push(ms);
    bases.push(base);
  }
}
const value = median(samples);
const base = median(bases);
console.log(
  `workload: spawn \`node dist/main.js -p hi --output-format json\` in a one-file git repo (catalog off, anthropic wire) until the fake provider receives the first request; ${RUNS} runs after ${WARMUP} warm-ups; baseline: spawn \`node -e 0\` until exit`,
);
console.log(
  `BENCH cli.coldstart ${value.toFixed(0)} ms baseline=${base.toFixed(0)} ratio=${(value / base).toFixed(2)}`,
);
