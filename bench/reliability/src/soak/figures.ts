import type { SoakResult } from "./soak.js";

/** The soak's figures: heap slope (MB per 1,000 rounds) after the first compaction, round times. */
export function soakFigures(result: SoakResult): {
  slope: number;
  firstMs: number;
  lastMs: number;
} {
  const first = result.firstCompactionRound ?? Number.POSITIVE_INFINITY;
  // From the first sample after the first compaction cycle.
  const after = result.samples.filter((s) => s.rounds > first);
  const xs = after.map((s) => s.rounds / 1000);
  const ys = after.map((s) => s.heapMb);
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / Math.max(1, v.length);
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (const [i, x] of xs.entries()) {
    num += (x - mx) * ((ys[i] ?? my) - my);
    den += (x - mx) ** 2;
  }
  const slope = den === 0 ? 0 : num / den;
  const times = after.length > 0 ? after : result.samples;
  return { slope, firstMs: times[0]?.msPerRound ?? 0, lastMs: times.at(-1)?.msPerRound ?? 0 };
}
