import type { EngineEvent, EventEnvelope } from "@z-engine/protocol";
import { emptyUsage } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { initialView, reduce, type View } from "./view.js";

const fold = (events: EngineEvent[], agentId?: string, from?: View): View =>
  events.reduce(
    (view, event, seq) =>
      reduce(view, {
        v: 2,
        sessionId: "s",
        seq,
        ts: 0,
        ...(agentId ? { agentId } : {}),
        event,
      } as EventEnvelope),
    from ?? initialView({ mode: "ask", model: "m", usage: emptyUsage() }),
  );

describe("the view", () => {
  it("keeps text and tool lines in the order they happened", () => {
    const view = fold([
      { type: "turnStarted", turnId: "t1" as never, userMessageId: "u1" as never, prompt: "go" },
      { type: "textDelta", messageId: "m1" as never, text: "Let me look." },
      {
        type: "toolStarted",
        toolCallId: "c1" as never,
        toolName: "Read",
        input: {},
        title: "Read a.ts",
      },
      { type: "toolProgress", toolCallId: "c1" as never, text: "reading" },
      {
        type: "toolFinished",
        toolCallId: "c1" as never,
        toolName: "Read",
        status: "ok",
        durationMs: 3,
        writtenPaths: [],
      },
    ]);
    expect(view.items.map((i) => i.kind)).toEqual(["user", "assistant", "tool"]);
    expect(view.items[2]).toMatchObject({ title: "Read a.ts", status: "ok" });
    expect(view.tools).toEqual([]);
    expect(view.running).toBe(true);
  });

  it("drops rewind targets after a conversation rewind, and keeps them for code only", () => {
    const started = fold([
      { type: "turnStarted", turnId: "t1" as never, userMessageId: "u1" as never, prompt: "one" },
      { type: "turnStarted", turnId: "t2" as never, userMessageId: "u2" as never, prompt: "two" },
    ]);
    const code = fold(
      [
        {
          type: "rewound",
          messageId: "u2" as never,
          restore: "code",
          restoredPaths: ["a"],
          unstorable: [],
        },
      ],
      undefined,
      started,
    );
    expect(code.targets).toHaveLength(2);
    const both = fold(
      [
        {
          type: "rewound",
          messageId: "u2" as never,
          restore: "both",
          restoredPaths: [],
          unstorable: [],
        },
      ],
      undefined,
      started,
    );
    expect(both.targets.map((t) => t.text)).toEqual(["one"]);
    expect(both.items.at(-1)).toMatchObject({
      kind: "info",
      text: 'Rewound code and conversation to before "two" (0 files restored)',
    });
  });

  it("shows a subagent's approval labelled with its id, and not its text", () => {
    const view = fold(
      [
        { type: "textDelta", messageId: "m1" as never, text: "inner" },
        {
          type: "approvalRequested",
          approvalId: "a1" as never,
          toolCallId: "c1" as never,
          toolName: "Bash",
          title: "Bash ls",
          reason: "r",
          suggestedRules: [],
        },
      ],
      "agent_1",
    );
    expect(view.live).toBe("");
    expect(view.approvals[0]).toMatchObject({ approvalId: "a1", agentId: "agent_1" });
  });
});

describe("command output", () => {
  it("puts an engine built-in's answer in the transcript, named, without starting a turn", () => {
    const view = fold([{ type: "commandOutput", name: "cost", markdown: "**Cost:** $0.01" }]);
    expect(view.items).toEqual([
      { id: expect.any(Number), kind: "output", name: "cost", text: "**Cost:** $0.01" },
    ]);
    expect(view.running).toBe(false);
  });
});
