import type { TestCountParser } from "./parser.js";
import { newTally, tallyResult } from "./text.js";

const VSTEST_LINE =
  /^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:\s+(\d+),\s+Total:\s+\d+/gm;

/**
 * `dotnet test`: one `Passed!/Failed!  - Failed: N, Passed: N, Skipped: N, Total: N` line per
 * test assembly (summed); older SDKs print a `Total tests:` block instead.
 */
export const dotnetTestParser: TestCountParser = {
  name: "dotnet-test",
  command: /\bdotnet\s+test\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(VSTEST_LINE)) {
      tally.seen = true;
      tally.failed += Number(match[1]);
      tally.passed += Number(match[2]);
      tally.skipped += Number(match[3]);
    }
    if (tally.seen) return tallyResult(tally);
    for (const block of output.matchAll(/^Total tests: \d+\n((?:\s+\w+: \d+\n?)+)/gm)) {
      tally.seen = true;
      for (const item of (block[1] ?? "").matchAll(/^\s+(Passed|Failed|Skipped): (\d+)/gm)) {
        const n = Number(item[2]);
        if (item[1] === "Passed") tally.passed += n;
        else if (item[1] === "Failed") tally.failed += n;
        else tally.skipped += n;
      }
    }
    return tallyResult(tally);
  },
};

/**
 * ctest: `67% tests passed, 1 tests failed out of 3`. Tests reported `***Skipped` are
 * inside that total and counted as skipped; `Not Run (Disabled)` ones are outside it and
 * counted as skipped too.
 */
export const ctestParser: TestCountParser = {
  name: "ctest",
  command: /\bctest\b/,
  parse(output) {
    const tally = newTally();
    for (const match of output.matchAll(/^\d+% tests passed, (\d+) tests? failed out of (\d+)/gm)) {
      tally.seen = true;
      tally.failed += Number(match[1]);
      tally.passed += Number(match[2]) - Number(match[1]);
    }
    if (!tally.seen) return null;
    const skippedInTotal = output.match(/^\s*\d+\/\d+ Test +#\d+: .*\*\*\*Skipped/gm)?.length ?? 0;
    const disabled =
      output.match(/^\s*\d+\/\d+ Test +#\d+: .*\*\*\*Not Run \(Disabled\)/gm)?.length ?? 0;
    tally.passed = Math.max(0, tally.passed - skippedInTotal);
    tally.skipped += skippedInTotal + disabled;
    return tallyResult(tally);
  },
};
