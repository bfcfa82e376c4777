import type { TestCountParser } from "./parser.js";
import { addItems, newTally, tallyResult } from "./text.js";

const CARGO_RESULT =
  /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; \d+ filtered out/gm;

/** `cargo test`: sums every `test result:` line (unit tests, integration tests, doc tests). */
export const cargoTestParser: TestCountParser = {
  name: "cargo-test",
  command: /\bcargo\s+(?:\+\S+\s+)?test\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(CARGO_RESULT)) {
      tally.seen = true;
      tally.passed += Number(match[1]);
      tally.failed += Number(match[2]);
      tally.skipped += Number(match[3]);
    }
    return tallyResult(tally);
  },
};

const NEXTEST_WORDS = {
  passed: "passed",
  failed: "failed",
  "timed out": "failed",
  "exec failed": "failed",
  skipped: "skipped",
} as const;

/** `cargo nextest run`: the `Summary [...] N tests run: A passed, B failed, C skipped` line. */
export const nextestParser: TestCountParser = {
  name: "nextest",
  command: /\bcargo\s+(?:\+\S+\s+)?nextest\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(/^\s*Summary \[[^\]]*\] \d+ tests? run: (.+)$/gm)) {
      // "(1 slow)" and similar notes in parentheses are not counts of their own.
      addItems(tally, (match[1] ?? "").replace(/\([^)]*\)/g, ""), NEXTEST_WORDS);
    }
    return tallyResult(tally);
  },
};
