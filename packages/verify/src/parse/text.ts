import type { TestCounts } from "@z-engine/protocol";

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks, titles).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching terminal escapes is the point
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

/** The output without terminal escape sequences and with `\n` line ends. */
export function cleanOutput(output: string): string {
  return output.replace(ANSI, "").replace(/\r\n?/g, "\n");
}

/** Mutable tally that parsers add to; `seen` says whether any summary was found. */
export interface Tally {
  passed: number;
  failed: number;
  skipped: number;
  seen: boolean;
}

export function newTally(): Tally {
  return { passed: 0, failed: 0, skipped: 0, seen: false };
}

export function tallyResult(tally: Tally): TestCounts | null {
  if (!tally.seen) return null;
  return { passed: tally.passed, failed: tally.failed, skipped: tally.skipped };
}

/** Which tally field a runner's word (`passed`, `failing`, `ignored`, ...) adds to. */
export type CountField = "passed" | "failed" | "skipped" | "ignore";

/**
 * Reads `N word` items (`3 passed`, `1 failed`) from a summary fragment and adds each to the
 * field its word maps to. Words the map does not know are ignored. Returns whether any item
 * was recognised.
 */
export function addItems(
  tally: Tally,
  fragment: string,
  words: Readonly<Record<string, CountField>>,
): boolean {
  let found = false;
  for (const match of fragment.matchAll(/(\d+)\s+([a-z][a-z ]*?[a-z]|[a-z])(?=\s*(?:[,|(]|$))/gi)) {
    const field = words[(match[2] ?? "").toLowerCase()];
    if (field === undefined) continue;
    found = true;
    if (field !== "ignore") tally[field] += Number(match[1]);
  }
  if (found) tally.seen = true;
  return found;
}

/** Lines of cleaned output. */
export function linesOf(output: string): string[] {
  return output.split("\n");
}
