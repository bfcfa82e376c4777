// cli.memory: peak resident memory of `zeng -p` over a 1,000-round session (design.md §7).
// Workload: 999 rounds that each call Glob (a tiny result), then a text answer; max turns
// 1,001; a 2,000,000-token context window (models.json) so that no compaction runs; the
// fake provider answers at once (no latency), Anthropic wire format. Measured with
// /usr/bin/time (max RSS of the child).
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { reply, startFakeProvider, when } from "@z-engine/testkit";
import { benchHome, MAIN, median, run } from "./world.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TIME = "/usr/bin/time";

const hasTools = (r: { body: unknown }) =>
  ((r.body as { tools?: unknown[] }).tools ?? []).length > 0;

async function once(rounds = ROUNDS): Promise<{ mb: number; seconds: number }> {
  const world = await benchHome();
  await writeFile(
    join(world.home, "config", "models.json"),
    JSON.stringify({ "claude-sonnet-5-5": { limit: { context: 2_000_000, output: 32_000 } } }),
  );
  const script = [];
  for (let i = 0; i < rounds - 1; i++)
    script.push(when(hasTools, reply.toolCall("Glob", { pattern: "*.md", path: world.repo.root })));
  script.push(when(hasTools, reply.text("done")));
  const provider = await startFakeProvider({ script });
  try {
    const started = Date.now();
    const result = await run(
      [
        TIME,
        "-f",
        "MAXRSS %M",
        process.execPath,
        ...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean),
        MAIN,
        "-p",
        "go",
        "--output-format",
        "json",
        "--max-turns",
        String(rounds + 1),
        "--permission-mode",
        "bypass",
      ].slice(1),
      world.env(provider),
      world.repo.root,
      TIME,
    );
    const seconds = (Date.now() - started) / 1000;
    if (process.env.BENCH_DEBUG) console.log(result.stderr);
    const line = JSON.parse(result.stdout) as { outcome: string };
    if (line.outcome !== "completed") throw new Error(`outcome ${line.outcome}: ${result.stdout}`);
    const served = provider.requests.filter(hasTools).length;
    if (served !== rounds) throw new Error(`expected ${rounds} rounds, served ${served}`);
    if (result.stderr.includes("compact")) throw new Error("a compaction ran");
    const kb = Number(/MAXRSS (\d+)/.exec(result.stderr)?.[1]);
    return { mb: kb / 1024, seconds };
  } finally {
    await provider.close();
    await world.dispose();
  }
}

if (!existsSync(TIME)) throw new Error(`${TIME} is needed to measure peak memory`);
// A short warm-up run writes the V8 code cache (world.ts shares it), so that every measured
// run starts as a user's second run does.
await once(5);
const samples: Array<{ mb: number; seconds: number }> = [];
for (let i = 0; i < RUNS; i++) samples.push(await once());
console.log(
  `workload: zeng -p, ${ROUNDS} rounds (${ROUNDS - 1} Glob calls, then text), max turns ${ROUNDS + 1}, 2M-token context (no compaction), zero-latency fake provider (anthropic wire); peak RSS of the child via ${TIME}; median of ${RUNS} runs after a 5-round warm-up that writes the code cache (each took ${samples.map((s) => s.seconds.toFixed(0)).join(", ")} s)`,
);
console.log(`BENCH cli.memory ${median(samples.map((s) => s.mb)).toFixed(0)} MB`);
