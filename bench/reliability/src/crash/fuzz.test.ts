import { describe, expect, it } from "vitest";
import { zengDriver } from "./drivers.js";
import { runCrashFuzz } from "./fuzz.js";

// The crash fuzz's CI subset (the bench script runs 1,000): one kill of a real zeng -p run for
// every kind and wire format, each resumed and checked.
describe("the crash fuzz over the file store", () => {
  it("survives a kill of each kind over both wire formats", { timeout: 300_000 }, async () => {
    const driver = zengDriver();
    const results = await runCrashFuzz({ kills: 14, chain: 1, driver });
    const failed = results.filter((r) => r.problems.length > 0);
    expect(failed.map((r) => `${r.kind} ${r.format}: ${r.problems.join("; ")}`)).toEqual([]);
    // A kill that misses its moment (the run got past it first, as under load: 11 of 14 once
    // beside the whole suite) still checks the resume; most must land for the subset to
    // cover each kind. Known defect: landing depends on timing (see the stop's note).
    expect(results.filter((r) => r.landed).length).toBeGreaterThanOrEqual(9);
  });
});
