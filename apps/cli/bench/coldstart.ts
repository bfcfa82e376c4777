// cli.coldstart: from spawning `node dist/zeng.cjs -p hi` to the first request arriving at
// the fake provider (design.md §2, §7, issue 18). Baseline: spawning `node -e 0` until it
// exits. The data folder is kept across runs, as a user's is, so the V8 code cache written
// by the warm-ups is used (src/code-cache.ts); `cli.coldstartNoCache` is the same start with
// the cache off (ZENGINE_CODE_CACHE=off). `cli.coldstartCpu` is the CPU time the child's
// main thread used until the request arrived (/proc/PID/schedstat), against the same for
// `node -e` until it prints: on a shared machine it moves far less than wall time.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { reply, startFakeProvider } from "@z-engine/testkit";
import { benchHome, MAIN, median } from "./world.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = 2;
/** Node flags for the measured start (as the harness's BENCH_NODE_FLAGS), e.g. a --require. */
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

interface Sample {
  readonly ms: number;
  readonly cpuMs: number;
}

/** CPU time of `pid`'s main thread so far, in ms (Linux; NaN elsewhere). */
function mainThreadCpu(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

type World = Awaited<ReturnType<typeof benchHome>>;

/** One start of `zeng -p hi` until the first request (extra: more environment). */
async function once(world: World, extra: Record<string, string>): Promise<Sample> {
  const provider = await startFakeProvider({ script: [reply.text("hello")] });
  try {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [...NODE_FLAGS, MAIN, "-p", "hi", "--output-format", "json"],
      {
        env: { ...world.env(provider), ...extra },
        cwd: world.repo.root,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    let sample: Sample | undefined;
    void provider.requestArrived(0).then(() => {
      sample = { ms: performance.now() - started, cpuMs: mainThreadCpu(child.pid as number) };
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    if (!sample) throw new Error(`zeng made no request: ${stderr}`);
    if (code !== 0) throw new Error(`zeng exited ${code}: ${stderr}`);
    return sample;
  } finally {
    await provider.close();
  }
}

/** `node -e` until it prints (CPU read then), then until it is gone (wall time). */
async function baseline(): Promise<Sample> {
  const started = performance.now();
  const child = spawn(process.execPath, ["-e", "process.stdout.write('x')"], {
    env: { PATH: process.env.PATH ?? "" },
    stdio: ["ignore", "pipe", "ignore"],
  });
  let cpuMs = Number.NaN;
  child.stdout.once("data", () => {
    cpuMs = mainThreadCpu(child.pid as number);
  });
  await new Promise((resolve) => child.on("close", resolve));
  return { ms: performance.now() - started, cpuMs };
}

async function series(extra: Record<string, string>) {
  const world = await benchHome();
  try {
    const samples: Sample[] = [];
    const bases: Sample[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const sample = await once(world, extra);
      const base = await baseline();
      if (i < WARMUP) continue;
      samples.push(sample);
      bases.push(base);
    }
    const pick = (list: Sample[], key: keyof Sample) => median(list.map((s) => s[key]));
    return {
      ms: pick(samples, "ms"),
      cpuMs: pick(samples, "cpuMs"),
      baseMs: pick(bases, "ms"),
      baseCpuMs: pick(bases, "cpuMs"),
    };
  } finally {
    await world.dispose();
  }
}

const line = (name: string, value: number, base: number) =>
  `BENCH ${name} ${value.toFixed(0)} ms baseline=${base.toFixed(0)} ratio=${(value / base).toFixed(2)}`;

const cached = await series({});
const uncached = await series({ ZENGINE_CODE_CACHE: "off" });
console.log(
  `workload: spawn \`node dist/zeng.cjs -p hi --output-format json\` in a one-file git repo (catalog off, anthropic wire, one data folder for all runs, so the warm-ups write the code cache) until the fake provider receives the first request; ${RUNS} runs after ${WARMUP} warm-ups; baseline: spawn \`node -e 0\` until exit; CPU: the child's main thread until the request (baseline: node -e until it prints); NoCache: ZENGINE_CODE_CACHE=off`,
);
console.log(line("cli.coldstart", cached.ms, cached.baseMs));
console.log(line("cli.coldstartCpu", cached.cpuMs, cached.baseCpuMs));
console.log(line("cli.coldstartNoCache", uncached.ms, uncached.baseMs));
console.log(line("cli.coldstartNoCacheCpu", uncached.cpuMs, uncached.baseCpuMs));
