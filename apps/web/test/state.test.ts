import type { EngineEvent, EventEnvelope, SessionId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { apply, emptyView, type StreamItem } from "../ui/state.js";

// The page's fold: each cursor applies once, deltas add up, a conversation rewind drops the
// rewound turns.

let cursor = 0;
function item(event: EngineEvent): StreamItem {
  const envelope = {
    v: 2,
    sessionId: "ses_x" as SessionId,
    seq: cursor,
    ts: 0,
    event,
  } as EventEnvelope;
  return { cursor: cursor++, replayed: false, envelope };
}

describe("the view fold", () => {
  it("applies each cursor once, so a replayed item is not shown twice", () => {
    cursor = 0;
    const view = emptyView();
    const started = item({ type: "assistantStarted", messageId: "msg_a" as never, model: "m" });
    const delta = item({ type: "textDelta", messageId: "msg_a" as never, text: "hel" });
    const more = item({ type: "textDelta", messageId: "msg_a" as never, text: "lo" });
    for (const i of [started, delta, more, delta, more]) apply(view, i);
    expect(view.entries).toEqual([
      expect.objectContaining({ kind: "assistant", text: "hello", done: false }),
    ]);
    expect(view.lastCursor).toBe(2);
  });

  it("drops the rewound turns on a conversation rewind and keeps them on a code rewind", () => {
    cursor = 0;
    const view = emptyView();
    apply(
      view,
      item({
        type: "turnStarted",
        turnId: "turn_1" as never,
        userMessageId: "msg_1" as never,
        prompt: "one",
      }),
    );
    apply(
      view,
      item({
        type: "turnStarted",
        turnId: "turn_2" as never,
        userMessageId: "msg_2" as never,
        prompt: "two",
      }),
    );
    apply(
      view,
      item({
        type: "rewound",
        messageId: "msg_2" as never,
        restore: "code",
        restoredPaths: [],
        unstorable: [],
      }),
    );
    expect(view.entries.filter((e) => e.kind === "user")).toHaveLength(2);
    apply(
      view,
      item({
        type: "rewound",
        messageId: "msg_2" as never,
        restore: "conversation",
        restoredPaths: [],
        unstorable: [],
      }),
    );
    expect(
      view.entries.filter((e) => e.kind === "user").map((e) => e.kind === "user" && e.text),
    ).toEqual(["one"]);
  });
});
