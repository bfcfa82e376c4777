import type { TestCountParser } from "./parser.js";
import { addItems, newTally, tallyResult } from "./text.js";

const PYTEST_WORDS = {
  passed: "passed",
  xpassed: "passed",
  failed: "failed",
  error: "failed",
  errors: "failed",
  skipped: "skipped",
  xfailed: "skipped",
  deselected: "ignore",
  warning: "ignore",
  warnings: "ignore",
  rerun: "ignore",
} as const;

// "==== 1 failed, 2 passed, 1 skipped in 0.01s ====" or, with -q, the same without the rules.
const PYTEST_SUMMARY = /^=*\s*((?:\d+ [a-z]+(?:, )?)+) in [\d.]+s(?: \([^)]*\))?\s*=*$/gm;

/** pytest: the final `N failed, N passed, N skipped ... in 0.01s` line; `no tests ran` is zero. */
export const pytestParser: TestCountParser = {
  name: "pytest",
  command: /\b(?:py\.test|pytest)\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(PYTEST_SUMMARY)) {
      addItems(tally, match[1] ?? "", PYTEST_WORDS);
    }
    if (!tally.seen && /^=*\s*no tests ran in [\d.]+s/m.test(output)) tally.seen = true;
    return tallyResult(tally);
  },
};
