import { clearedToolResultText } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { clearToolResults, planToolResultClearing } from "./clearing.js";
import { memorySink, transcript } from "./fixtures.test.helper.js";
import { createTokenEstimator } from "./tokens.js";

const estimator = createTokenEstimator();

describe("tool-result clearing", () => {
  it("does nothing at or below half the window", () => {
    const messages = transcript(10, 1, 800);
    const tokens = estimator.estimateMessages(messages);
    expect(planToolResultClearing(messages, { windowTokens: tokens * 2, estimator })).toBeNull();
    expect(
      planToolResultClearing(messages, { windowTokens: tokens * 2 - 10, estimator }),
    ).not.toBeNull();
  });

  it("clears all but the last results, stores originals and records what it did", async () => {
    const messages = transcript(10, 1, 800);
    const plan = planToolResultClearing(messages, { windowTokens: 1000, estimator, keepLast: 3 });
    expect(plan?.toolUseIds).toEqual(Array.from({ length: 7 }, (_, i) => `call_${i}_0`));
    expect(plan?.tokensFreed).toBeGreaterThan(0);
    const { sink, stored } = memorySink();
    const cleared = await clearToolResults(messages, plan ?? { toolUseIds: [] }, sink);
    expect(cleared?.clearing.calls).toHaveLength(7);
    const first = cleared?.clearing.calls[0];
    expect(first?.artifact?.ref).toBe("artifact:tool-result-Read-call_0_0.txt");
    const original = messages[2]?.content[0];
    expect(original?.type === "toolResult" && original.content[0]).toMatchObject({ type: "text" });
    expect(stored.get(first?.artifact?.ref ?? "")).toBe(
      original?.type === "toolResult" && original.content[0]?.type === "text"
        ? original.content[0].text
        : "",
    );
    const placeholder = cleared?.messages[2]?.content[0];
    expect(placeholder).toMatchObject({
      content: [{ type: "text", text: clearedToolResultText(first?.artifact ?? null) }],
    });
    expect(cleared?.messages[20]).toBe(messages[20]);
    expect(estimator.estimateMessages(cleared?.messages ?? [])).toBeLessThan(
      estimator.estimateMessages(messages) / 2,
    );
    // A second pass finds nothing new to clear among the old results.
    const again = planToolResultClearing(cleared?.messages ?? [], {
      windowTokens: 100,
      estimator,
      keepLast: 3,
    });
    expect(again).toBeNull();
  });

  it("still clears when storing an original fails, and reports it", async () => {
    const messages = transcript(6, 1, 800);
    const { sink } = memorySink((name) => name.includes("call_1_0"));
    const cleared = await clearToolResults(
      messages,
      { toolUseIds: ["call_0_0", "call_1_0"] as never },
      sink,
    );
    expect(cleared?.clearing.calls.map((c) => c.artifact === null)).toEqual([false, true]);
    expect(cleared?.failures).toEqual([
      { toolUseId: "call_1_0", error: "Error: disk full writing tool-result-Read-call_1_0.txt" },
    ]);
    expect(await clearToolResults(messages, { toolUseIds: ["nope"] as never }, sink)).toBeNull();
  });
});
