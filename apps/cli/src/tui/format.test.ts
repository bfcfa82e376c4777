import * as engine from "@z-engine/engine";
import { describe, expect, it } from "vitest";
import * as mine from "./format.js";

// The screen keeps its own copies (it renders before the engine loads): they must agree.
describe("the screen's formats", () => {
  it("match the engine's", () => {
    const usage = { input: 1200, output: 34, cacheRead: 5, cacheWrite: 6, costUsd: 0.01234 };
    expect(mine.formatTokens(usage)).toBe(engine.formatTokens(usage));
    for (const usd of [0, 0.01234, 3.456])
      expect(mine.formatCost(usd)).toBe(engine.formatCost(usd));
    expect(mine.formatSeconds(1234)).toBe(engine.formatSeconds(1234));
    for (const status of ["verified", "unverified", "failed", "notApplicable"] as const) {
      const badge = { status, reason: "r", checks: [] };
      expect(mine.badgeLabel(badge)).toBe(engine.badgeLabel(badge));
    }
  });
});
