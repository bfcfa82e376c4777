/** Lines a tool row shows of a long output, and how many it leaves for Ctrl+O. */
export interface Folded {
  readonly lines: readonly string[];
  readonly hidden: number;
}

// npm's and yarn's two-line preamble (`> pkg@1.0.0 test` / `> node --test`), blank lines.
const PREAMBLE = /^\s*(> \S|$)/;
// A line that says what failed: test runners' markers, assertion and error lines.
const FAILURE =
  /(^|\s)(not ok\b|✖|✗|×|FAIL\b|FAILED\b|failed\b)|Error\b|error:|panicked|Traceback|Expected|expected|Received|actual\b|assert/i;
// Lines of a stack or of a runner's bookkeeping, which say little of what failed.
const NOISE =
  /^\s*(at |stack:|location:|duration_ms|failureType|code: '|name: '|operator:|Test\.|node:internal|AsyncResource|\.\.\.$|---$)/;
// Counts: TAP's `# tests 3`, jest's `Tests: 1 failed`, cargo's `test result:`, "3 passing".
const COUNTS =
  /^\s*#\s*(tests|pass|fail)\b|^\s*Tests?:|test result:|\b\d+ (passed|failed|passing|failing)\b/i;

const MAX_FAILURE = 5;
const MAX_COUNTS = 3;

function meaningful(output: string): string[] {
  return output
    .replace(/\n+$/, "")
    .split("\n")
    .filter((l) => !PREAMBLE.test(l));
}

/**
 * What a failed command's row shows: the first failure (its line and the few after it that are
 * not stack or bookkeeping) and the runner's counts, without npm's preamble; the last lines when
 * no failure line is recognised. `hidden` is how many lines of the output are not shown. Pure.
 */
export function failureSummary(output: string, keep = 8): Folded {
  const all = output.replace(/\n+$/, "").split("\n");
  const lines = meaningful(output);
  const first = lines.findIndex((l) => FAILURE.test(l) && !COUNTS.test(l));
  const picked: string[] = [];
  if (first >= 0) {
    for (let i = first; i < lines.length && picked.length < MAX_FAILURE; i++) {
      const line = lines[i] as string;
      if (COUNTS.test(line)) break;
      if (!NOISE.test(line)) picked.push(line);
    }
  }
  const counts = lines.filter((l) => COUNTS.test(l)).slice(-MAX_COUNTS);
  let shown = [...picked, ...counts];
  if (shown.length === 0) shown = lines.slice(-Math.min(keep, 5));
  shown = shown.slice(0, keep);
  return { lines: shown, hidden: Math.max(0, all.length - shown.length) };
}

/** A successful output, folded: its first `keep` lines after npm's preamble. Pure. */
export function headSummary(output: string, keep = 3): Folded {
  const all = output.replace(/\n+$/, "").split("\n");
  const lines = meaningful(output);
  const shown = lines.slice(0, keep);
  return { lines: shown, hidden: Math.max(0, all.filter((l) => l !== "").length - shown.length) };
}
