import type { EngineEvent, EventEnvelope, SessionId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { reduceView } from "../ui/view/reduce.js";
import { emptyView, type PageView, type StreamItem } from "../ui/view/types.js";

// The page's fold (pure: a new view per batch): each cursor applies once, deltas add up, a
// conversation rewind drops the rewound turns, a subagent's events are its own.

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

/** A turnStarted item. */
const started = (turnId: string, userMessageId: string, prompt: string) =>
  item({
    type: "turnStarted",
    turnId: turnId as never,
    userMessageId: userMessageId as never,
    prompt,
  });

/** A rewound item (nothing restored, nothing unstorable). */
const rewound = (messageId: string, restore: "code" | "conversation" | "both") =>
  item({
    type: "rewound",
    messageId: messageId as never,
    restore,
    restoredPaths: [],
    unstorable: [],
  });

/** Folds one item at a time, as a slow stream would. */
function apply(view: { current: PageView }, i: StreamItem): void {
  view.current = reduceView(view.current, [i]);
}

describe("the view fold", () => {
  it("applies each cursor once, so a replayed item is not shown twice", () => {
    cursor = 0;
    const box = { current: emptyView() };
    const started = item({ type: "assistantStarted", messageId: "msg_a" as never, model: "m" });
    const delta = item({ type: "textDelta", messageId: "msg_a" as never, text: "hel" });
    const more = item({ type: "textDelta", messageId: "msg_a" as never, text: "lo" });
    for (const i of [started, delta, more, delta, more]) apply(box, i);
    expect(box.current.entries).toEqual([
      expect.objectContaining({ kind: "assistant", text: "hello", done: false }),
    ]);
    expect(box.current.lastCursor).toBe(2);
  });

  it("drops the rewound turns on a conversation rewind and keeps them on a code rewind", () => {
    cursor = 0;
    const box = { current: emptyView() };
    apply(box, started("turn_1", "msg_1", "one"));
    apply(box, started("turn_2", "msg_2", "two"));
    apply(box, rewound("msg_2", "code"));
    expect(box.current.entries.filter((e) => e.kind === "user")).toHaveLength(2);
    apply(box, rewound("msg_2", "conversation"));
    expect(
      box.current.entries.filter((e) => e.kind === "user").map((e) => e.kind === "user" && e.text),
    ).toEqual(["one"]);
  });

  it("attributes each costUpdated step to the agent and the turn its envelope names", () => {
    cursor = 0;
    const box = { current: emptyView() };
    const total = (input: number, costUsd: number) => ({
      type: "costUpdated" as const,
      sessionUsage: { input, output: 0, cacheRead: 0, cacheWrite: 0, costUsd },
    });
    apply(box, item(total(100, 1), { turnId: "turn_1" }));
    apply(box, item(total(400, 4), { turnId: "turn_1", agentId: "agent_r" }));
    apply(box, item(total(450, 4.5), { turnId: "turn_1" }));
    apply(box, item(total(500, 5), { turnId: "turn_2" }));
    expect(box.current.agentUsage.main?.input).toBe(200);
    expect(box.current.agentUsage.main?.costUsd).toBeCloseTo(2);
    expect(box.current.agentUsage.agent_r?.input).toBe(300);
    expect(box.current.turnUsage.turn_1?.input).toBe(450);
    expect(box.current.turnUsage.turn_2?.costUsd).toBeCloseTo(0.5);
    const own = { input: 150, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 1.5 };
    const badge = { status: "notApplicable" as const, reason: "", checks: [] };
    const end = (turnId: string) => ({
      type: "turnFinished" as const,
      turnId: turnId as never,
      outcome: "completed" as const,
      badge,
      durationMs: 1,
    });
    apply(box, item({ ...end("turn_1"), usage: own }));
    apply(box, item({ ...end("turn_2"), usage: box.current.turnUsage.turn_2 ?? own }));
    const ends = box.current.entries.filter((e) => e.kind === "turnEnd");
    expect(ends[0]?.kind === "turnEnd" && ends[0].allAgents?.input).toBe(450);
    expect(ends[1]?.kind === "turnEnd" && ends[1].allAgents).toBeUndefined();
  });
});

describe("the fold's purity and the trial's fixes", () => {
  const badge = (status: "verified" | "notApplicable") => ({ status, reason: "", checks: [] });
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, costUsd: 0 };

  it("never changes the view it is given", () => {
    cursor = 0;
    const before = emptyView();
    const frozen = JSON.stringify(before);
    const after = reduceView(before, [
      started("turn_1", "msg_1", "p"),
      item({ type: "assistantStarted", messageId: "msg_a" as never, model: "m" }),
    ]);
    expect(JSON.stringify(before)).toBe(frozen);
    expect(after).not.toBe(before);
    expect(after.entries).toHaveLength(2);
    // Nothing new: the same object back.
    expect(reduceView(after, [])).toBe(after);
  });

  it("keeps each MCP server's last state from mcpServerUpdated (what the Context screen re-reads on)", () => {
    cursor = 0;
    const server = (state: "needsLogin" | "starting" | "ready") =>
      item({
        type: "mcpServerUpdated",
        server: { name: "remote", state, transport: "http", tools: state === "ready" ? 2 : 0 },
      });
    const before = reduceView(emptyView(), [server("needsLogin")]);
    expect(before.mcpStates).toEqual({ remote: "needsLogin" });
    const after = reduceView(before, [server("starting"), server("ready")]);
    expect(after.mcpStates).toEqual({ remote: "ready" });
    expect(before.mcpStates).toEqual({ remote: "needsLogin" });
  });

  it("ends a failed turn's answer and running calls: no streaming cursor is left", () => {
    cursor = 0;
    const view = reduceView(emptyView(), [
      started("turn_1", "msg_1", "p"),
      item({ type: "assistantStarted", messageId: "msg_a" as never, model: "m" }),
      item({ type: "textDelta", messageId: "msg_a" as never, text: "half" }),
      item({
        type: "toolStarted",
        toolCallId: "call_1" as never,
        toolName: "Bash",
        input: {},
        title: "Bash",
      }),
      item({
        type: "turnFinished",
        turnId: "turn_1" as never,
        outcome: "failed",
        usage,
        badge: badge("notApplicable"),
        durationMs: 1,
        reason: "the provider refused",
      }),
    ]);
    const answer = view.entries.find((e) => e.kind === "assistant");
    expect(answer?.kind === "assistant" && answer.done).toBe(true);
    const call = view.entries.find((e) => e.kind === "tool");
    expect(call?.kind === "tool" && call.status).toBe("cancelled");
    expect(view.runningTurn).toBeUndefined();
  });

  it("keeps a subagent's transcript apart, and names the agent that asked for approval", () => {
    cursor = 0;
    const view = reduceView(emptyView(), [
      item(
        { type: "assistantStarted", messageId: "msg_s" as never, model: "m" },
        { agentId: "agent_r" },
      ),
      item(
        {
          type: "toolStarted",
          toolCallId: "call_s" as never,
          toolName: "Read",
          input: {},
          title: "Read a",
        },
        { agentId: "agent_r" },
      ),
      item(
        {
          type: "approvalRequested",
          approvalId: "apr_1" as never,
          toolCallId: "call_s" as never,
          toolName: "Read",
          title: "Read a",
          reason: "r",
          suggestedRules: [],
        },
        { agentId: "agent_r" },
      ),
    ]);
    expect(view.entries).toEqual([]);
    expect(view.agents.agent_r?.entries.map((e) => e.kind)).toEqual(["assistant", "tool"]);
    expect(view.approvals[0]?.agentId).toBe("agent_r");
  });

  it("after a rewind of the conversation gives the prompt back and asks for the badge again", () => {
    cursor = 0;
    const view = reduceView(emptyView(), [
      started("turn_1", "msg_1", "first"),
      item({
        type: "turnFinished",
        turnId: "turn_1" as never,
        outcome: "completed",
        usage,
        badge: badge("verified"),
        durationMs: 1,
      }),
      started("turn_2", "msg_2", "second"),
      item({
        type: "turnFinished",
        turnId: "turn_2" as never,
        outcome: "completed",
        usage,
        badge: badge("notApplicable"),
        durationMs: 1,
      }),
      rewound("msg_2", "conversation"),
    ]);
    expect(view.rewind).toMatchObject({ prompt: "second", filesChanged: true });
    expect(view.badge?.status).toBe("verified");
    const code = reduceView(view, [
      item({
        type: "rewound",
        messageId: "msg_1" as never,
        restore: "code",
        restoredPaths: ["a.txt"],
        unstorable: [],
      }),
    ]);
    // Only the code went back: nothing to put in the composer, and no kept turn's code is left.
    expect(code.rewind?.prompt).toBeUndefined();
    expect(code.rewind?.filesChanged).toBe(false);
  });
});
