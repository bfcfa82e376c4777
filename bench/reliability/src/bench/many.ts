// Many sessions at once (issue 47): 20 sessions in one engine, one hammered with faults.
//   node dist/bench/many.js [--sessions 20] [--steps 5]
import { runCrowd } from "../many/many.js";
import { bench, numberFlag } from "./report.js";

const sessions = numberFlag("sessions", 20);
const steps = numberFlag("steps", 5);
console.log(
  `workload: ${sessions} sessions at once in one engine, ${steps} steps each (a real Bash side effect, then an answer) over the fake provider; session 0 gets a fault on two attempts in three; both wire formats`,
);
let failed = 0;
for (const format of ["anthropic", "openai"] as const) {
  const results = await runCrowd({ sessions, steps, format });
  for (const r of results)
    if (r.problems.length > 0) {
      failed++;
      console.log(`FAILED ${format} session ${r.index}:\n  ${r.problems.join("\n  ")}`);
    }
  const others = results.filter((r) => !r.hammered);
  const unaffected = others.filter((r) => r.problems.length === 0).length;
  const hammered = results.find((r) => r.hammered);
  const mean = others.reduce((n, r) => n + r.ms, 0) / Math.max(1, others.length);
  bench(`many.${format}`, `${unaffected}/${others.length}`, "sessions", {
    hammeredRetries: hammered?.retries ?? 0,
    hammeredMs: (hammered?.ms ?? 0).toFixed(0),
    othersMeanMs: mean.toFixed(0),
  });
}
process.exitCode = failed === 0 ? 0 : 1;
