// Measures the two shipped classifiers on public data they were not trained on (the "eval"
// half of scripts/public-data, see its SOURCE.md), beside the rule-based check the engine
// applies without them, in the same run:
//   credential: a text counts as flagged when one of its candidate tokens scores at least
//     CREDENTIAL_THRESHOLD (what screen_request does); baseline: the always-on detector of
//     known key formats (util/key-formats.ts) finds a value.
//   risky-call: `Bash: <command>` scores at least RISKY_THRESHOLD (what review_call does);
//     baseline: the policy asks, in the default mode with no rules, for every command it does
//     not recognise as read-only (isReadOnlyCommand).
// Run: pnpm --filter @z-engine/engine eval-classifiers
import { isReadOnlyCommand, parseCommand } from "@z-engine/policy";
import { credentialFeatures, denseRow, riskyCallFeatures } from "../src/decisions/classifiers/features.js";
import { NativeRuntime } from "../src/decisions/native.js";
import { RISKY_THRESHOLD } from "../src/decisions/uses/review-call.js";
import { CREDENTIAL_THRESHOLD, credentialCandidates } from "../src/decisions/uses/screen-request.js";
import { findKnownKeys } from "../src/util/key-formats.js";
import { commandCases, credentialCases } from "./public-data/sets.js";

const never = new AbortController().signal;
const runtime = new NativeRuntime();

/** Precision and recall of `flagged` against `labels`. */
export function measure(labels: readonly (0 | 1)[], flagged: readonly boolean[]) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const [i, label] of labels.entries()) {
    if (flagged[i] && label === 1) tp++;
    else if (flagged[i]) fp++;
    else if (label === 1) fn++;
  }
  return { precision: tp / Math.max(1, tp + fp), recall: tp / Math.max(1, tp + fn) };
}

async function scores(name: "credential" | "riskyCall", rows: Float32Array[]): Promise<Float32Array> {
  const out = await runtime.score(name, rows, never);
  if (!out) throw new Error("onnxruntime-node did not score (is it installed?)");
  return out;
}

function line(model: string, what: string, m: { precision: number; recall: number }) {
  console.log(
    `${model.padEnd(11)} ${what.padEnd(34)} precision=${m.precision.toFixed(3)} recall=${m.recall.toFixed(3)}`,
  );
}

async function credentials() {
  const cases = credentialCases("eval");
  const candidates = cases.map((c) => credentialCandidates(c.text));
  const s = await scores("credential", candidates.flat().map((c) => denseRow(credentialFeatures(c.token, c.context))));
  let k = 0;
  const model = candidates.map((list) => list.map(() => (s[k++] ?? 0) >= CREDENTIAL_THRESHOLD).some(Boolean));
  const rules = cases.map((c) => findKnownKeys(c.text).length > 0);
  const labels = cases.map((c) => c.label);
  const positives = labels.filter((l) => l === 1).length;
  console.log(`credential: gitleaks eval half, n=${cases.length} (${positives} with a credential)`);
  line("credential", "classifier >= 0.8", measure(labels, model));
  line("credential", "baseline: key-formats detector", measure(labels, rules));
  line("credential", "both (the screen as shipped)", measure(labels, model.map((m, i) => m || (rules[i] ?? false))));
}

async function calls() {
  const cases = commandCases("eval");
  const s = await scores("riskyCall", cases.map((c) => denseRow(riskyCallFeatures(`Bash: ${c.command}`))));
  const model = cases.map((_, i) => (s[i] ?? 0) >= RISKY_THRESHOLD);
  const asks: boolean[] = [];
  for (const c of cases) asks.push(!isReadOnlyCommand(await parseCommand(c.command)));
  const labels = cases.map((c) => c.label);
  const positives = labels.filter((l) => l === 1).length;
  console.log(`risky-call: NL2Bash eval half, n=${cases.length} (${positives} risky by risky-rules.ts)`);
  line("risky-call", "classifier >= 0.7", measure(labels, model));
  line("risky-call", "baseline: policy asks (not read-only)", measure(labels, asks));
}

await credentials();
await calls();
