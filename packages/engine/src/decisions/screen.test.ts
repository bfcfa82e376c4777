import { defaultSettings } from "@z-engine/config";
import type { Message, TurnId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { screenedCount, screenedMessages } from "./screen.js";

type Host = Parameters<typeof screenedMessages>[0];

/** A session's parts screening reads; no decision feature is on, so no model is asked. */
const host = (): Host =>
  ({
    config: { settings: defaultSettings(), fastModel: "fast" },
    journal: { emit: () => {} },
    client: () => {
      throw new Error("no model in this test");
    },
    approvals: {},
  }) as unknown as Host;

const round = (n: number): Message[] =>
  [
    {
      id: `a${n}`,
      role: "assistant",
      content: [{ type: "toolUse", id: `c${n}`, name: "Read", input: {} }],
    },
    {
      id: `u${n}`,
      role: "user",
      content: [
        {
          type: "toolResult",
          toolUseId: `c${n}`,
          content: [{ type: "text", text: `file ${n}` }],
          isError: false,
        },
      ],
    },
  ] as Message[];

describe("screenedMessages", () => {
  it("remembers only the screened results still in the working set (a long session with compactions)", async () => {
    const core = host();
    const turn = { signal: new AbortController().signal, turnId: "turn_1" as TurnId };
    // 1,000 rounds; compactions keep the working set to the last 10 rounds.
    for (let n = 1; n <= 1000; n++) {
      const working = Array.from({ length: Math.min(n, 10) }, (_, i) => round(n - i))
        .reverse()
        .flat();
      await screenedMessages(core, turn, working);
    }
    expect(screenedCount(core)).toBeLessThanOrEqual(10);
  });
});
