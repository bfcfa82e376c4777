import type { EngineEvent, EventEnvelope, SessionId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { apply, emptyView, type StreamItem } from "../ui/state.js";

// The page's fold: each cursor applies once, deltas add up, a conversation rewind drops the
// rewound turns.

let cursor = 0;
function item(event: EngineEvent, scope: { agentId?: string; turnId?: string } = {}): StreamItem {
  const envelope = {
    v: 2,
    sessionId: "ses_x" as SessionId,
    seq: cursor,
    ts: 0,
    ...scope,
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

  it("attributes each costUpdated step to the agent and the turn its envelope names", () => {
    cursor = 0;
    const view = emptyView();
    const total = (input: number, costUsd: number) => ({
      type: "costUpdated" as const,
      sessionUsage: { input, output: 0, cacheRead: 0, cacheWrite: 0, costUsd },
    });
    apply(view, item(total(100, 1), { turnId: "turn_1" }));
    apply(view, item(total(400, 4), { turnId: "turn_1", agentId: "agent_r" }));
    apply(view, item(total(450, 4.5), { turnId: "turn_1" }));
    apply(view, item(total(500, 5), { turnId: "turn_2" }));
    expect(view.agentUsage.main?.input).toBe(200);
    expect(view.agentUsage.main?.costUsd).toBeCloseTo(2);
    expect(view.agentUsage.agent_r?.input).toBe(300);
    expect(view.turnUsage.turn_1?.input).toBe(450);
    expect(view.turnUsage.turn_2?.costUsd).toBeCloseTo(0.5);
    const own = { input: 150, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 1.5 };
    const badge = { status: "notApplicable" as const, reason: "", checks: [] };
    const end = (turnId: string) => ({
      type: "turnFinished" as const,
      turnId: turnId as never,
      outcome: "completed" as const,
      badge,
      durationMs: 1,
    });
    apply(view, item({ ...end("turn_1"), usage: own }));
    apply(view, item({ ...end("turn_2"), usage: view.turnUsage.turn_2 ?? own }));
    const ends = view.entries.filter((e) => e.kind === "turnEnd");
    expect(ends[0]?.kind === "turnEnd" && ends[0].allAgents?.input).toBe(450);
    expect(ends[1]?.kind === "turnEnd" && ends[1].allAgents).toBeUndefined();
  });
});
