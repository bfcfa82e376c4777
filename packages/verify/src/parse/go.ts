import type { TestCountParser } from "./parser.js";
import { addItems, newTally, tallyResult } from "./text.js";

/**
 * `go test -v`: one `--- PASS:` / `--- FAIL:` / `--- SKIP:` line per test and subtest.
 * Plain `go test` prints only failures, so without a `=== RUN` or `--- PASS` line the
 * counts are unknown and this returns null.
 */
export const goTestParser: TestCountParser = {
  name: "go-test",
  command: /\bgo\s+test\b/,
  parse(output) {
    if (!/^(?:=== RUN|\s*--- PASS:)/m.test(output)) return null;
    const tally = newTally();
    tally.seen = true;
    for (const match of output.matchAll(/^\s*--- (PASS|FAIL|SKIP): /gm)) {
      if (match[1] === "PASS") tally.passed++;
      else if (match[1] === "FAIL") tally.failed++;
      else tally.skipped++;
    }
    return tallyResult(tally);
  },
};

/** gotestsum: `DONE 5 tests, 1 skipped, 1 failure in 0.238s` (failures, errors and skips subtracted from tests). */
export const gotestsumParser: TestCountParser = {
  name: "gotestsum",
  command: /\bgotestsum\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(/^DONE (.+?) in [\d.]+m?s$/gm)) {
      const part = newTally();
      const tests = /(\d+) tests?\b/.exec(match[1] ?? "");
      if (!tests) continue;
      addItems(part, (match[1] ?? "").replace(/\d+ tests?(?:, )?/, ""), {
        skipped: "skipped",
        failure: "failed",
        failures: "failed",
        error: "failed",
        errors: "failed",
      });
      tally.seen = true;
      tally.failed += part.failed;
      tally.skipped += part.skipped;
      tally.passed += Math.max(0, Number(tests[1]) - part.failed - part.skipped);
    }
    return tallyResult(tally);
  },
};
