// Engine overhead per round: a 200-round session with a zero-latency ScriptedModel and a
// trivial tool, so what is measured is the engine's own work (recording, events, the gate,
// the batch, building the next request). Run: pnpm --filter @z-engine/engine bench
import { oneSession, q, ROUNDS } from "./round-session.js";

const RUNS = 5;

await oneSession(); // warm-up
const all: number[] = [];
const medians: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const rounds = (await oneSession()).sort((a, b) => a - b);
  medians.push(q(rounds, 0.5));
  all.push(...rounds);
}
all.sort((a, b) => a - b);
console.log(
  `workload: ${RUNS} sessions of ${ROUNDS} rounds (zero-latency ScriptedModel, one trivial read-only tool call a round, bypass mode), after one warm-up session`,
);
console.log(
  `distribution (ms): p10 ${q(all, 0.1).toFixed(3)} p50 ${q(all, 0.5).toFixed(3)} p90 ${q(all, 0.9).toFixed(3)} p99 ${q(all, 0.99).toFixed(3)} max ${(all.at(-1) ?? 0).toFixed(3)}`,
);
medians.sort((a, b) => a - b);
console.log(`BENCH engine.round ${q(medians, 0.5).toFixed(3)} ms`);
