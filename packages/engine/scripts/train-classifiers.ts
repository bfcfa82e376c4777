// Trains the two shipped decision classifiers on generated data and writes them as ONNX files
// into packages/engine/models/, with a check file of held-out samples and their TypeScript
// reference scores (the test compares onnxruntime-node's scores with them).
// Run: pnpm --filter @z-engine/engine train-classifiers
import { writeFileSync } from "node:fs";
import {
  credentialFeatures,
  FEATURE_DIM,
  referenceScore,
  riskyCallFeatures,
  type SparseFeatures,
} from "../src/decisions/classifiers/features.js";
import { credentialCandidates } from "../src/decisions/uses/screen-request.js";
import { callExamples, credentialExamples, rng } from "./classifier-data.js";
import { logisticRegressionOnnx } from "./onnx-writer.js";
import { commandCases, credentialTokens } from "./public-data/sets.js";

interface Row {
  readonly features: SparseFeatures;
  readonly label: 0 | 1;
  readonly input: Record<string, string>;
}

/** Logistic regression by stochastic gradient descent with L2, shuffled each epoch. */
function train(rows: readonly Row[], epochs = 12, rate = 0.5, l2 = 1e-5) {
  const weights = new Float32Array(FEATURE_DIM);
  let bias = 0;
  const order = rows.map((_, i) => i);
  const r = rng(7);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    const step = rate / (1 + epoch);
    for (const k of order) {
      const row = rows[k] as Row;
      const g = referenceScore(weights, bias, row.features) - row.label;
      const { index, value } = row.features;
      for (let m = 0; m < index.length; m++) {
        const i = index[m] as number;
        weights[i] =
          (weights[i] as number) - step * (g * (value[m] as number) + l2 * (weights[i] as number));
      }
      bias -= step * g;
    }
  }
  return { weights, bias };
}

function evaluate(rows: readonly Row[], weights: Float32Array, bias: number, threshold = 0.5) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const row of rows) {
    const yes = referenceScore(weights, bias, row.features) >= threshold;
    if (yes && row.label === 1) tp++;
    else if (yes) fp++;
    else if (row.label === 1) fn++;
  }
  return {
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    n: rows.length,
  };
}

function build(name: string, trainRows: Row[], heldOut: Row[]) {
  const { weights, bias } = train(trainRows);
  const bytes = logisticRegressionOnnx(weights, bias, name);
  const dir = new URL("../models/", import.meta.url);
  writeFileSync(new URL(`${name}.onnx`, dir), bytes);
  const samples = heldOut.slice(0, 40).map((row) => ({
    ...row.input,
    score: referenceScore(weights, bias, row.features),
  }));
  writeFileSync(new URL(`${name}.check.json`, dir), `${JSON.stringify({ samples }, null, 1)}\n`);
  const m = evaluate(heldOut, weights, bias);
  console.log(
    `${name}: ${bytes.length} bytes; held-out n=${m.n} precision=${m.precision.toFixed(4)} recall=${m.recall.toFixed(4)}`,
  );
}

const credRows = (seed: number, n: number): Row[] =>
  credentialExamples(seed, n).map((e) => ({
    features: credentialFeatures(e.token, e.context),
    label: e.label,
    input: { token: e.token, context: e.context },
  }));
const callRows = (seed: number, n: number): Row[] =>
  callExamples(seed, n).map((e) => ({
    features: riskyCallFeatures(e.text),
    label: e.label,
    input: { text: e.text },
  }));

// Public-like rows: the "train" half of scripts/public-data (the "eval" half is never seen
// here; eval-classifiers measures on it).
const publicCredRows = (): Row[] =>
  credentialTokens("train", credentialCandidates).map((e) => ({
    features: credentialFeatures(e.token, e.context),
    label: e.label,
    input: { token: e.token, context: e.context },
  }));
// The risky commands are an eighth of the corpus: each counts POSITIVE_WEIGHT times.
const POSITIVE_WEIGHT = 6;
const publicCallRows = (): Row[] =>
  commandCases("train")
    .flatMap((e) => Array<typeof e>(e.label === 1 ? POSITIVE_WEIGHT : 1).fill(e))
    .map((e) => ({
      features: riskyCallFeatures(`Bash: ${e.command}`),
      label: e.label,
      input: { text: `Bash: ${e.command}` },
    }));

// Held-out sets come from other seeds than the training sets.
build("credential", [...credRows(1, 8000), ...publicCredRows()], credRows(1001, 2000));
build("risky-call", [...callRows(2, 8000), ...publicCallRows()], callRows(1002, 2000));
