import type { TestCountParser } from "./parser.js";
import { addItems, newTally, type Tally, tallyResult } from "./text.js";

const COMMON_WORDS = {
  passed: "passed",
  failed: "failed",
  skipped: "skipped",
  todo: "skipped",
  pending: "skipped",
  total: "ignore",
} as const;

function sumLines(output: string, pattern: RegExp, fragmentOf: (m: RegExpMatchArray) => string) {
  const tally = newTally();
  for (const match of output.matchAll(pattern)) addItems(tally, fragmentOf(match), COMMON_WORDS);
  return tallyResult(tally);
}

/** vitest: `Tests  1 failed | 3 passed | 1 skipped (5)`. */
export const vitestParser: TestCountParser = {
  name: "vitest",
  command: /\bvitest\b/,
  parse: (output) =>
    sumLines(output, /^\s*Tests {2,}(.+?)\s*\(\d+\)\s*$/gm, (m) =>
      (m[1] ?? "").replace(/\|/g, ","),
    ),
};

/** jest: `Tests:       1 failed, 1 skipped, 3 passed, 5 total`. */
export const jestParser: TestCountParser = {
  name: "jest",
  command: /\bjest\b/,
  parse: (output) => sumLines(output, /^Tests:\s+(.+)$/gm, (m) => m[1] ?? ""),
};

/** `node --test`, TAP (`# pass 2`) or spec (`ℹ pass 2`) reporter. */
export const nodeTestParser: TestCountParser = {
  name: "node-test",
  command: /\bnode\b.*\s--test\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(/^(?:#|ℹ) (pass|fail|cancelled|skipped|todo) (\d+)$/gm)) {
      tally.seen = true;
      const n = Number(match[2]);
      if (match[1] === "pass") tally.passed += n;
      else if (match[1] === "fail" || match[1] === "cancelled") tally.failed += n;
      else tally.skipped += n;
    }
    return tallyResult(tally);
  },
};

/** mocha's spec reporter: `2 passing (4ms)`, `1 pending`, `1 failing`. */
export const mochaParser: TestCountParser = {
  name: "mocha",
  command: /\bmocha\b/,
  parse(output) {
    const tally = newTally();
    const lines = output.split("\n");
    lines.forEach((line, i) => {
      const passing = /^\s+(\d+) passing \(/.exec(line);
      if (!passing) return;
      tally.seen = true;
      tally.passed += Number(passing[1]);
      for (const next of lines.slice(i + 1, i + 3)) {
        const other = /^\s+(\d+) (pending|failing)$/.exec(next);
        if (!other) break;
        if (other[2] === "pending") tally.skipped += Number(other[1]);
        else tally.failed += Number(other[1]);
      }
    });
    return tallyResult(tally);
  },
};

/** `bun test`: ` 2 pass`, ` 1 skip`, ` 1 fail` before `Ran N tests across ...`. */
export const bunTestParser: TestCountParser = {
  name: "bun-test",
  command: /\bbun\s+test\b/,
  parse(output) {
    if (!/^Ran \d+ tests? across /m.test(output)) return null;
    const tally: Tally = newTally();
    for (const match of output.matchAll(/^ (\d+) (pass|fail|skip|todo)$/gm)) {
      tally.seen = true;
      const n = Number(match[1]);
      if (match[2] === "pass") tally.passed += n;
      else if (match[2] === "fail") tally.failed += n;
      else tally.skipped += n;
    }
    return tallyResult(tally);
  },
};

/** `deno test`: `FAILED | 2 passed | 1 failed | 1 ignored (8ms)` or `ok | 3 passed | 0 failed (5ms)`. */
export const denoTestParser: TestCountParser = {
  name: "deno-test",
  command: /\bdeno\s+test\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(/^(?:ok|FAILED) \| (.+)$/gm)) {
      // "3 passed (2 steps)": the steps are part of the tests already counted.
      const fragment = (match[1] ?? "").replace(/\(\d+ steps?\)/g, "").replace(/\|/g, ",");
      addItems(tally, fragment, {
        passed: "passed",
        failed: "failed",
        ignored: "skipped",
        "filtered out": "ignore",
        measured: "ignore",
      });
    }
    return tallyResult(tally);
  },
};
