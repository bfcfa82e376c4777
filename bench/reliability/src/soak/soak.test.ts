import { describe, expect, it } from "vitest";
import { runSoak } from "./soak.js";

// The soak's CI subset (the bench script runs 10,000 rounds and measures the heap's slope):
// enough rounds for several compactions, then a resume whose first request sends the
// working set, not the log.
describe("the soak", () => {
  it("compacts again and again, and resumes to the working set", async () => {
    const result = await runSoak({ rounds: 300, sampleEvery: 100 });
    expect(result.problems).toEqual([]);
    expect(result.compactions).toBeGreaterThanOrEqual(3);
    expect(result.workingSet).toBeLessThan(result.logMessages);
  });
});
