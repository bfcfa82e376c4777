// The soak (issue 47): 10,000 model rounds in one session with compactions, over the file store.
//   node --expose-gc dist/bench/soak.js [--rounds 10000] [--every 500]
import { runSoak } from "../soak/soak.js";
import { soakFigures } from "../soak/figures.js";
import { bench, numberFlag } from "./report.js";

const rounds = numberFlag("rounds", 10_000);
const every = numberFlag("every", 500);
if (!(globalThis as { gc?: unknown }).gc)
  console.log("note: run node with --expose-gc for exact heap figures");
console.log(
  `workload: ${rounds} rounds in one session (turns of 9 real Read calls and an answer, an in-process model keeping nothing), 24k-token window compacting at 60%, file store; sampled every ${every} rounds`,
);
const result = await runSoak({
  rounds,
  sampleEvery: every,
  onSample: (s) =>
    console.log(
      `rounds=${s.rounds} heap=${s.heapMb.toFixed(1)}MB ms/round=${s.msPerRound.toFixed(2)} compactions=${s.compactions}`,
    ),
});
for (const p of result.problems) console.log(`FAILED ${p}`);
const f = soakFigures(result);
console.log(
  `first compaction at round ${result.firstCompactionRound}; ${result.compactions} compactions; ms/round first=${f.firstMs.toFixed(2)} last=${f.lastMs.toFixed(2)}`,
);
bench("soak", result.rounds, "rounds", {
  slope: f.slope.toFixed(3),
  compactions: result.compactions,
});
bench("soak.round", f.lastMs.toFixed(2), "ms", {
  baseline: f.firstMs.toFixed(2),
  ratio: (f.lastMs / f.firstMs).toFixed(2),
});
bench("soak.resume", result.resumeMs.toFixed(1), "ms", {
  baseline: result.readLogMs.toFixed(1),
  ratio: (result.resumeMs / result.readLogMs).toFixed(2),
  records: result.logRecords,
  workingSet: result.workingSet,
});
process.exitCode = result.problems.length === 0 ? 0 : 1;
