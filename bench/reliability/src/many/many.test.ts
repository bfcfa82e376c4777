import { describe, expect, it } from "vitest";
import { runCrowd } from "./many.js";

// 20 sessions at once in one engine, one hammered with faults (the bench script runs the same).
describe("20 sessions at once", () => {
  for (const format of ["anthropic", "openai"] as const)
    it(`leaves 19 unaffected while one is hammered with faults (${format})`, async () => {
      const results = await runCrowd({ sessions: 20, steps: 3, format });
      expect(results.filter((r) => r.problems.length > 0)).toEqual([]);
      expect(results.find((r) => r.hammered)?.retries).toBeGreaterThanOrEqual(4);
    });
});
