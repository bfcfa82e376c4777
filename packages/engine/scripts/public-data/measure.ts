// Precision and recall of the shipped classifiers and of the engine's rule-based checks on the
// public evaluation half (sets.ts). Shared by eval-classifiers.ts and its test.
import { isReadOnlyCommand, parseCommand } from "@z-engine/policy";
import {
  credentialFeatures,
  denseRow,
  riskyCallFeatures,
} from "../../src/decisions/classifiers/features.js";
import type { NativeModels } from "../../src/decisions/native.js";
import { RISKY_THRESHOLD } from "../../src/decisions/uses/review-call.js";
import {
  CREDENTIAL_THRESHOLD,
  credentialCandidates,
} from "../../src/decisions/uses/screen-request.js";
import { findKnownKeys } from "../../src/util/key-formats.js";
import { commandCases, credentialCases } from "./sets.js";

/** Precision and recall of one detector. */
export interface Figures {
  readonly precision: number;
  readonly recall: number;
}

/** What one measurement found: its set, and each detector's figures by name. */
export interface Measured {
  readonly n: number;
  readonly positives: number;
  readonly model: Figures;
  readonly baseline: Figures;
  readonly both?: Figures;
}

const never = new AbortController().signal;

/** Precision and recall of `flagged` against `labels`. */
export function measure(labels: readonly (0 | 1)[], flagged: readonly boolean[]): Figures {
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

async function scores(
  native: NativeModels,
  name: "credential" | "riskyCall",
  rows: Float32Array[],
) {
  const out = await native.score(name, rows, never);
  if (!out) throw new Error("onnxruntime-node did not score (is it installed?)");
  return out;
}

/**
 * credential: a text is flagged when one of its candidate tokens scores at least
 * CREDENTIAL_THRESHOLD (what screen_request does); the baseline is the always-on detector of
 * known key formats (util/key-formats.ts); `both` is the screen as shipped (either flags).
 */
export async function measureCredentials(native: NativeModels): Promise<Measured> {
  const cases = credentialCases("eval");
  const candidates = cases.map((c) => credentialCandidates(c.text));
  const rows = candidates.flat().map((c) => denseRow(credentialFeatures(c.token, c.context)));
  const s = await scores(native, "credential", rows);
  let k = 0;
  const model = candidates.map((list) =>
    list.map(() => (s[k++] ?? 0) >= CREDENTIAL_THRESHOLD).some(Boolean),
  );
  const rules = cases.map((c) => findKnownKeys(c.text).length > 0);
  const labels = cases.map((c) => c.label);
  return {
    n: cases.length,
    positives: labels.filter((l) => l === 1).length,
    model: measure(labels, model),
    baseline: measure(labels, rules),
    both: measure(
      labels,
      model.map((m, i) => m || (rules[i] ?? false)),
    ),
  };
}

/**
 * risky-call: `Bash: <command>` is flagged at RISKY_THRESHOLD (what review_call does); the
 * baseline is the policy without the classifier: in the default mode with no rules it asks for
 * every command it does not recognise as read-only (isReadOnlyCommand).
 */
export async function measureCalls(native: NativeModels): Promise<Measured> {
  const cases = commandCases("eval");
  const rows = cases.map((c) => denseRow(riskyCallFeatures(`Bash: ${c.command}`)));
  const s = await scores(native, "riskyCall", rows);
  const asks: boolean[] = [];
  for (const c of cases) asks.push(!isReadOnlyCommand(await parseCommand(c.command)));
  const labels = cases.map((c) => c.label);
  return {
    n: cases.length,
    positives: labels.filter((l) => l === 1).length,
    model: measure(
      labels,
      cases.map((_, i) => (s[i] ?? 0) >= RISKY_THRESHOLD),
    ),
    baseline: measure(labels, asks),
  };
}
