import type { EngineEvent, EventEnvelope } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { withHistory } from "./session-open.js";
import { initialView, itemId } from "./view.js";

const usage = { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, costUsd: 0.5 };
const envelopes = (events: EngineEvent[]): EventEnvelope[] =>
  events.map((event, seq) => ({ v: 2, sessionId: "s", seq, ts: 0, event }) as EventEnvelope);
const user = (id: string, prompt: string): EngineEvent => ({
  type: "turnStarted",
  turnId: `turn_${id}` as never,
  userMessageId: id as never,
  prompt,
});
const answer = (id: string, text: string): EngineEvent => ({
  type: "assistantFinished",
  message: { id: id as never, role: "assistant", content: [{ type: "text", text }] },
  usage: { ...usage, costUsd: 0 },
  stopReason: "endTurn",
});

describe("a resumed session's view", () => {
  it("folds the stored events after what is on screen: prompts, answers, tool calls and state", () => {
    const onScreen = {
      id: itemId(),
      kind: "notice" as const,
      level: "warning" as const,
      text: "bad setting",
    };
    const stored = envelopes([
      { type: "modeChanged", mode: "plan" },
      user("msg_1", "fix it"),
      {
        type: "toolStarted",
        toolCallId: "c1" as never,
        toolName: "Bash",
        input: { command: "npm test" },
        title: "Bash",
      },
      {
        type: "toolFinished",
        toolCallId: "c1" as never,
        toolName: "Bash",
        status: "error",
        durationMs: 3,
        writtenPaths: [],
        display: {
          kind: "command",
          command: "npm test",
          output: "not ok 1\n# fail 1\n",
          exitCode: 1,
        },
      },
      answer("msg_2", "Fixed."),
      { type: "costUpdated", sessionUsage: usage },
      // A card left open when the session was written is not shown again.
      { type: "trustRequired", projectRoot: "/p", withheld: ["hooks"] },
    ]);
    const view = withHistory(
      initialView({ mode: "ask", model: "m", usage: { ...usage, costUsd: 0 }, items: [onScreen] }),
      stored,
      { title: "Fix it", messageCount: 4 },
      { continue: true, model: "flag-model" },
      "/p",
    );
    expect(view.items.map((i) => i.kind)).toEqual(["notice", "user", "tool", "assistant", "info"]);
    expect(view.items[2]).toMatchObject({ title: "Bash npm test", status: "error" });
    expect(view.items.at(-1)).toMatchObject({ text: "── resumed: Fix it (4 messages)" });
    expect(view.targets).toEqual([{ messageId: "msg_1", text: "fix it" }]);
    expect(view).toMatchObject({ mode: "plan", model: "flag-model", usage });
    expect(view.trust).toBeUndefined();
  });

  it("shows the conversation as it stands after a conversation rewind", () => {
    const stored = envelopes([
      user("msg_1", "first"),
      answer("a1", "One."),
      user("msg_2", "second"),
      answer("a2", "Two."),
      {
        type: "rewound",
        messageId: "msg_2" as never,
        restore: "conversation",
        restoredPaths: [],
        unstorable: [],
      },
      user("msg_3", "third"),
    ]);
    const view = withHistory(
      initialView({ mode: "ask", model: "m", usage }),
      stored,
      { messageCount: 3 },
      { continue: false },
      "/p",
    );
    const texts = view.items.map((i) => ("text" in i ? i.text : i.kind));
    expect(texts).toEqual(["first", "One.", "third", "── resumed (3 messages)"]);
    expect(view.targets.map((t) => t.text)).toEqual(["first", "third"]);
  });
});
