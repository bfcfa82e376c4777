// engine.firstRequest (issue 18), in process: a host that imports the built engine (dist,
// unbundled), creates it, opens a session and sends a prompt with the built-in Anthropic
// client (its SDK import starts when the session opens), timed from the start of
// createEngine until the fake provider, running in the same process, receives the first
// request. The import before it is printed beside it (`engine.firstRequestImport`), and a
// second session in the same process (`engine.firstRequestWarm`) shows what is left once
// everything is loaded. Each run is a fresh process (bench/first-request-child.mjs).
// Baseline: spawning `node -e 0` until it exits. Run: pnpm --filter @z-engine/engine bench
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createFixtureRepo } from "@z-engine/testkit";

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const CHILD = join(dirname(fileURLToPath(import.meta.url)), "first-request-child.mjs");

interface Figures {
  readonly importMs: number;
  readonly firstRequestMs: number;
  readonly warmMs: number;
}

function spawnNode(args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(stderr))));
  });
}

async function once(): Promise<Figures> {
  const repo = await createFixtureRepo({ files: { "README.md": "# bench\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-bench-"));
  try {
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ZENGINE_HOME: join(home, "data"),
      ZENGINE_CONFIG_HOME: join(home, "config"),
      ZENGINE_PROVIDER: "anthropic",
      ZENGINE_API_KEY: "bench-key",
    };
    const out = await spawnNode([CHILD, "--second"], env, repo.root);
    return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Figures;
  } finally {
    await repo.dispose();
    await rm(home, { recursive: true, force: true });
  }
}

async function baseline(): Promise<number> {
  const started = performance.now();
  await spawnNode(["-e", "0"], { PATH: process.env.PATH ?? "" }, process.cwd());
  return performance.now() - started;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;
await once(); // warm-up
const runs: Figures[] = [];
const base: number[] = [];
for (let i = 0; i < RUNS; i++) {
  runs.push(await once());
  base.push(await baseline());
}
const b = median(base);
const line = (name: string, value: number) =>
  `BENCH ${name} ${value.toFixed(0)} ms baseline=${b.toFixed(0)} ratio=${(value / b).toFixed(2)}`;
console.log(
  `workload: a fresh node process imports the built engine (dist, unbundled) and @z-engine/config (firstRequestImport), starts the fake provider in process, then createEngine + createSession in a one-file git repo (repo map on, catalog off) + run("hi") with the built-in Anthropic client until the provider receives the first request (firstRequest); then a second session in the same process, open to first request (firstRequestWarm); ${RUNS} runs after a warm-up, medians; baseline: spawn \`node -e 0\` until exit`,
);
console.log(line("engine.firstRequest", median(runs.map((r) => r.firstRequestMs))));
console.log(line("engine.firstRequestImport", median(runs.map((r) => r.importMs))));
console.log(line("engine.firstRequestWarm", median(runs.map((r) => r.warmMs))));
