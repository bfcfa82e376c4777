// Measures the two shipped classifiers on public data they were not trained on (the "eval"
// half of scripts/public-data, see its SOURCE.md), beside the rule-based check the engine
// applies without them, in the same run (public-data/measure.ts says how each is counted).
// Run: pnpm --filter @z-engine/engine eval-classifiers
import { NativeRuntime } from "../src/decisions/native.js";
import { type Figures, measureCalls, measureCredentials } from "./public-data/measure.js";

const line = (model: string, what: string, m: Figures) =>
  console.log(
    `${model.padEnd(11)} ${what.padEnd(40)} precision=${m.precision.toFixed(3)} recall=${m.recall.toFixed(3)}`,
  );

const runtime = new NativeRuntime();
const cred = await measureCredentials(runtime);
console.log(`credential: gitleaks, eval half, n=${cred.n} (${cred.positives} with a credential)`);
line("credential", "classifier >= 0.8", cred.model);
line("credential", "baseline: key-formats detector", cred.baseline);
if (cred.both) line("credential", "either (the screen as shipped)", cred.both);
const calls = await measureCalls(runtime);
console.log(
  `risky-call: NL2Bash, eval half, n=${calls.n} (${calls.positives} risky by risky-rules.ts)`,
);
line("risky-call", "classifier >= 0.7", calls.model);
line("risky-call", "baseline: policy asks (not read-only)", calls.baseline);
