import type { TestCountParser } from "./parser.js";
import { newTally, tallyResult } from "./text.js";

const SUREFIRE =
  /^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(.*)$/gm;

/**
 * Maven Surefire/Failsafe: the `Results:` line of each module (`Tests run: 4, Failures: 1,
 * Errors: 0, Skipped: 1` with nothing after it). When no module summary is present (a
 * run cut short), the per-class lines are summed instead. Errors count as failures.
 */
export const surefireParser: TestCountParser = {
  name: "maven-surefire",
  command: /(?:^|[\s/])mvnw?\b/,
  parse(output) {
    const modules = newTally();
    const classes = newTally();
    for (const match of output.matchAll(SUREFIRE)) {
      const [run, failures, errors, skipped] = [match[1], match[2], match[3], match[4]].map(Number);
      const target = (match[5] ?? "").trim() === "" ? modules : classes;
      target.seen = true;
      target.failed += (failures ?? 0) + (errors ?? 0);
      target.skipped += skipped ?? 0;
      target.passed += Math.max(0, (run ?? 0) - (failures ?? 0) - (errors ?? 0) - (skipped ?? 0));
    }
    return tallyResult(modules.seen ? modules : classes);
  },
};

/**
 * Gradle: the test task's `N tests completed, F failed, S skipped` line (printed when a test
 * failed or was skipped), else per-test `Class > test() PASSED` lines when test logging
 * prints events. A successful run with neither gives null.
 */
export const gradleParser: TestCountParser = {
  name: "gradle",
  command: /(?:^|[\s/])gradlew?\b/,
  parse(output) {
    const summary = newTally();
    for (const match of output.matchAll(
      /^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?\s*$/gm,
    )) {
      const failed = Number(match[2] ?? 0);
      const skipped = Number(match[3] ?? 0);
      summary.seen = true;
      summary.failed += failed;
      summary.skipped += skipped;
      summary.passed += Math.max(0, Number(match[1]) - failed - skipped);
    }
    if (summary.seen) return tallyResult(summary);
    const events = newTally();
    for (const match of output.matchAll(/^\S.* > .+ (PASSED|FAILED|SKIPPED)\s*$/gm)) {
      events.seen = true;
      if (match[1] === "PASSED") events.passed++;
      else if (match[1] === "FAILED") events.failed++;
      else events.skipped++;
    }
    return tallyResult(events);
  },
};
