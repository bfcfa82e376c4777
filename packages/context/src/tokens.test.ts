import { describe, expect, it } from "vitest";
import { buildRequest } from "./request.js";
import { call, result, text, transcript, user } from "./fixtures.test.helper.js";
import { createTokenEstimator } from "./tokens.js";

describe("TokenEstimator", () => {
  it("estimates about four characters a token, counting tool input and images", () => {
    const estimator = createTokenEstimator();
    expect(estimator.estimateText("x".repeat(400))).toBe(100);
    const withImage = user({ type: "image", mediaType: "image/png", data: "AAAA" });
    expect(estimator.estimateMessage(withImage)).toBeGreaterThanOrEqual(1600);
    const callMessage = {
      role: "assistant" as const,
      content: [call("a", "Bash", { command: "x".repeat(400) })],
    };
    expect(estimator.estimateMessage(callMessage)).toBeGreaterThan(100);
    expect(estimator.estimateMessage(user(result("a", "y".repeat(800))))).toBeGreaterThanOrEqual(
      200,
    );
  });

  it("calibrates towards the input tokens responses report, within bounds", () => {
    const estimator = createTokenEstimator({ smoothing: 1 });
    const request = buildRequest({
      model: "m",
      system: [],
      tools: [],
      messages: transcript(5),
      maxTokens: 10,
    });
    const before = estimator.estimateRequest(request);
    estimator.observe(request, {
      input: 100,
      output: 5,
      cacheRead: before * 2 - 100,
      cacheWrite: 0,
    });
    expect(estimator.ratio).toBeCloseTo(2, 1);
    expect(Math.abs(estimator.estimateRequest(request) - before * 2)).toBeLessThanOrEqual(2);
    estimator.observe(request, { input: before * 1000, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(estimator.ratio).toBe(4);
    estimator.observe(request, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    estimator.observe(
      { system: [], tools: [], messages: [] },
      { input: 50, output: 0, cacheRead: 0, cacheWrite: 0 },
    );
    expect(estimator.ratio).toBe(4);
  });

  it("smooths observations by default", () => {
    const estimator = createTokenEstimator();
    const request = {
      system: [{ id: "base", text: "x".repeat(4000), cacheable: true }],
      tools: [],
      messages: [user(text("hi"))],
    };
    const raw = estimator.estimateRequest(request);
    estimator.observe(request, { input: raw * 3, output: 0, cacheRead: 0, cacheWrite: 0 });
    expect(estimator.ratio).toBeCloseTo(2, 1);
  });
});
