// engine.firstRequest (issue 18): a host process that imports the engine, opens a session
// and sends a prompt, timed from spawn until the fake provider receives the first request,
// with the built-in Anthropic client (its SDK import starts when the session opens).
// Baseline: spawning `node -e 0` until it exits. Run: pnpm --filter @z-engine/engine bench
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createFixtureRepo, reply, startFakeProvider } from "@z-engine/testkit";

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const CHILD = join(dirname(fileURLToPath(import.meta.url)), "first-request-child.mjs");

function spawnNode(args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(0) : reject(new Error(stderr))));
  });
}

async function once(): Promise<number> {
  const repo = await createFixtureRepo({ files: { "README.md": "# bench\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-bench-"));
  const provider = await startFakeProvider({ script: [reply.text("hello")] });
  try {
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ZENGINE_HOME: join(home, "data"),
      ZENGINE_CONFIG_HOME: join(home, "config"),
      ZENGINE_PROVIDER: "anthropic",
      ZENGINE_BASE_URL: provider.anthropicBaseUrl,
      ZENGINE_API_KEY: "bench-key",
    };
    let arrived = 0;
    void provider.requestArrived(0).then(() => {
      arrived = performance.now();
    });
    const started = performance.now();
    await spawnNode([CHILD], env, repo.root);
    if (arrived === 0) throw new Error("no request arrived");
    return arrived - started;
  } finally {
    await provider.close();
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
const ours: number[] = [];
const base: number[] = [];
for (let i = 0; i < RUNS; i++) {
  ours.push(await once());
  base.push(await baseline());
}
const [o, b] = [median(ours), median(base)];
console.log(
  `workload: spawn a host that imports the built engine (dist, unbundled), opens a session in a one-file git repo (repo map on, catalog off) and runs "hi" with the built-in Anthropic client, until the fake provider receives the first request; ${RUNS} runs after a warm-up, median; baseline: spawn \`node -e 0\` until exit`,
);
console.log(
  `BENCH engine.firstRequest ${o.toFixed(0)} ms baseline=${b.toFixed(0)} ratio=${(o / b).toFixed(2)}`,
);
