import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

/** Results shorter than this (characters or lines) are sent whole. */
export const RELEVANCE_MIN_CHARS = 6_000;
export const RELEVANCE_MIN_LINES = 80;
/** Advice keeping more than this share of the lines abstains (nothing worth cutting). */
const MAX_KEPT_SHARE = 0.6;
const MAX_RANGES = 12;
/** The numbered lines shown to the model, in characters. */
const DIGEST_BUDGET = 7_000;
/** Lines worth showing the model when the result does not fit whole. */
const SIGNAL = /error|fail|warn|exception|panic|assert|expected|denied|not found|✗|×|FAIL|ERR/i;

const Keep = lazily(() =>
  z.object({
    keep: z.array(z.tuple([z.number().int(), z.number().int()])).max(40),
  }),
);

const INSTRUCTIONS =
  'A coding agent ran a tool whose output is long. Pick the line ranges that matter for the agent\'s work (failures, errors, the summary, the lines it asked for); the full output stays available. Lines are numbered. Reply with JSON only: {"keep": [[<first line>, <last line>], ...]}.';

/**
 * The numbered lines the model sees: all of them when they fit DIGEST_BUDGET, else the
 * first and last 30 and the lines that look like failures (with one line around), each cut
 * to 160 characters, gaps shown as `…`.
 */
export function numberedDigest(lines: readonly string[]): string {
  const numbered = (i: number) => `${i + 1}: ${(lines[i] ?? "").slice(0, 160)}`;
  const all = lines.map((_, i) => numbered(i)).join("\n");
  if (all.length <= DIGEST_BUDGET) return all;
  const shown = new Set<number>();
  for (let i = 0; i < Math.min(30, lines.length); i++) shown.add(i);
  for (let i = Math.max(0, lines.length - 30); i < lines.length; i++) shown.add(i);
  for (const [i, line] of lines.entries())
    if (SIGNAL.test(line))
      for (const j of [i - 1, i, i + 1]) if (j >= 0 && j < lines.length) shown.add(j);
  const out: string[] = [];
  let size = 0;
  let last = -1;
  for (const i of [...shown].sort((a, b) => a - b)) {
    const text = `${i > last + 1 ? "…\n" : ""}${numbered(i)}`;
    if (size + text.length > DIGEST_BUDGET) break;
    out.push(text);
    size += text.length + 1;
    last = i;
  }
  return out.join("\n");
}

/** `ranges` clamped to 1..lineCount, sorted and merged; invalid ones dropped. */
export function normalizeRanges(
  ranges: readonly (readonly [number, number])[],
  lineCount: number,
): [number, number][] {
  const valid = ranges
    .map(([a, b]) => [Math.max(1, a), Math.min(lineCount, b)] as [number, number])
    .filter(([a, b]) => a <= b)
    .sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const r of valid) {
    const prev = merged.at(-1);
    if (prev && r[0] <= prev[1] + 1) prev[1] = Math.max(prev[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/**
 * relevance (seam: relevance): for a long tool result, the fast model picks the line ranges
 * that matter; the seam sends those and stores the full result as an artifact. Short
 * results, empty picks, too many ranges and picks keeping most of the result abstain.
 */
export const relevance: DecisionUse<"relevance"> = {
  name: "relevance",
  seam: "relevance",
  module: "uses/relevance.ts",
  async decide(input, ctx) {
    const lines = input.text.split("\n");
    if (input.text.length < RELEVANCE_MIN_CHARS || lines.length < RELEVANCE_MIN_LINES)
      return undefined;
    const question = `Tool: ${input.toolName} (${lines.length} lines)\n\n${numberedDigest(lines)}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Keep, ctx.signal);
    if (!answer) return undefined;
    const keepLines = normalizeRanges(answer.keep, lines.length);
    const kept = keepLines.reduce((n, [a, b]) => n + b - a + 1, 0);
    if (kept === 0 || keepLines.length > MAX_RANGES || kept > lines.length * MAX_KEPT_SHARE)
      return undefined;
    return { keepLines };
  },
  describe: (advice) => `keep ${advice.keepLines.length} range(s)`,
};
