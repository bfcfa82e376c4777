import type { ContentBlock, Message, MessageId } from "@z-engine/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, call, result, round, text, transcript, user } from "./fixtures.test.helper.js";
import { findSplitPoint, legalSplitPoints } from "./split.js";
import { createTokenEstimator } from "./tokens.js";

const estimator = createTokenEstimator();

/** True when no tool call and its result sit on different sides of `split`. */
function separatesNothing(messages: readonly Message[], split: number): boolean {
  const sides = new Map<string, Set<boolean>>();
  messages.forEach((message, i) => {
    for (const block of message.content) {
      if (block.type !== "toolUse") continue;
      const set = sides.get(block.id) ?? new Set<boolean>();
      set.add(i < split);
      sides.set(block.id, set);
    }
  });
  return messages.every((message, j) =>
    message.content.every((block) => {
      if (block.type !== "toolResult") return true;
      const set = sides.get(block.toolUseId);
      return set === undefined || (set.size === 1 && set.has(j < split));
    }),
  );
}

describe("findSplitPoint", () => {
  it("keeps about keepRecentTokens of recent history and never splits a call from its result", () => {
    const messages = transcript(20, 1, 400);
    const split = findSplitPoint(messages, { estimator, keepRecentTokens: 1000 });
    expect(split).not.toBeNull();
    const kept = messages.slice(split ?? 0);
    expect(estimator.estimateMessages(kept)).toBeGreaterThanOrEqual(1000);
    expect(estimator.estimateMessages(kept.slice(2))).toBeLessThan(1000);
    expect(messages[split ?? 0]?.role).toBe("assistant");
    expect(separatesNothing(messages, split ?? 0)).toBe(true);
  });

  it("may split inside one long turn (there is only one user prompt)", () => {
    const messages = transcript(30);
    const split = findSplitPoint(messages, { estimator, keepRecentTokens: 500 }) ?? 0;
    expect(split).toBeGreaterThan(1);
    expect(
      messages
        .slice(0, split)
        .filter((m) => m.content.some((b) => b.type === "text" && b.text.startsWith("Fix"))),
    ).toHaveLength(1);
  });

  it("returns null when everything must be kept or no legal point exists", () => {
    expect(findSplitPoint(transcript(2), { estimator, keepRecentTokens: 1_000_000 })).toBeNull();
    expect(findSplitPoint([], { estimator, keepRecentTokens: 0 })).toBeNull();
    const tangled = [
      user(text("go")),
      assistant(call("a")),
      user(text("x")),
      assistant(text("y")),
      user(result("a")),
    ];
    expect(legalSplitPoints(tangled)).toEqual([true, true, false, false, false, true]);
    expect(findSplitPoint(tangled, { estimator, keepRecentTokens: 0 })).toBe(1);
  });
});

const ids = ["a", "b", "c", "d", "e"];
const blockArb: fc.Arbitrary<ContentBlock> = fc.oneof(
  fc.string({ maxLength: 200 }).map((t) => text(t)),
  fc.constantFrom(...ids).map((id) => call(id)),
  fc.constantFrom(...ids).map((id) => result(id, "r".repeat(300))),
);
const messagesArb = fc.array(
  fc.record({
    id: fc.constant("m" as MessageId),
    role: fc.constantFrom("user" as const, "assistant" as const),
    content: fc.array(blockArb, { maxLength: 4 }),
  }),
  { maxLength: 40 },
);

describe("findSplitPoint on random transcripts", () => {
  it("always splits at a legal point that drops something and keeps something", () => {
    fc.assert(
      fc.property(messagesArb, fc.integer({ min: 0, max: 3000 }), (messages, keep) => {
        const split = findSplitPoint(messages, { estimator, keepRecentTokens: keep });
        if (split === null) return;
        expect(split).toBeGreaterThanOrEqual(1);
        expect(split).toBeLessThan(messages.length);
        expect(separatesNothing(messages, split)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it("finds a split in well-formed transcripts longer than what is kept", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 30 }),
        fc.integer({ min: 1, max: 3 }),
        (rounds, calls) => {
          const messages = transcript(rounds, calls);
          const split = findSplitPoint(messages, { estimator, keepRecentTokens: 200 });
          expect(split).not.toBeNull();
          expect(separatesNothing(messages, split ?? 0)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    expect(round(0)).toHaveLength(2);
  });
});
