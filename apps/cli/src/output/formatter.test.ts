import type { EventEnvelope } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { outputFor } from "./formatter.js";
import type { RunEnd } from "./result.js";

const envelope = (seq: number, event: EventEnvelope["event"], agentId?: string): EventEnvelope =>
  ({
    v: 2,
    sessionId: "ses_1",
    seq,
    ts: 1,
    ...(agentId ? { agentId } : {}),
    event,
  }) as EventEnvelope;

const end: RunEnd = {
  outcome: "failed",
  reason: "upstream down",
  usage: { input: 10, output: 2, cacheRead: 5, cacheWrite: 0, costUsd: 0.0123 },
  badge: { status: "unverified", reason: "No test ran after the last change.", checks: [] },
  durationMs: 1500,
  sessionId: "ses_1",
};

function capture() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: (t: string) => {
        out.stdout += t;
      },
      stderr: (t: string) => {
        out.stderr += t;
      },
    },
  };
}

const text = (seq: number, t: string, agentId?: string) =>
  envelope(
    seq,
    { type: "textDelta", messageId: "msg_1", text: t } as EventEnvelope["event"],
    agentId,
  );

describe("output formats", () => {
  it("text: main-agent deltas on stdout (subagents left out), the footer on stderr", () => {
    const { out, io } = capture();
    const f = outputFor("text", io);
    f.onEvent(text(0, "Hello "));
    f.onEvent(text(1, "from a subagent", "agent_1"));
    f.onEvent(text(2, "world"));
    f.onEvent(envelope(3, { type: "notice", level: "warning", code: "x", message: "careful" }));
    f.finish(end);
    expect(out.stdout).toBe("Hello world\n");
    expect(out.stderr).toBe(
      "zeng: warning: careful\n── failed · Unverified (No test ran after the last change.) · 15 in / 2 out tokens · $0.0123 · 1.5 s · session ses_1: upstream down\n",
    );
  });

  it("stream-json: one envelope per line, then the result; nothing after the result", () => {
    const { out, io } = capture();
    const f = outputFor("stream-json", io);
    f.onEvent(text(0, "hi"));
    f.finish(end);
    f.onEvent(text(1, "late"));
    f.finish(end);
    const lines = out.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ seq: 0, event: { text: "hi" } });
    expect(JSON.parse(lines[1] as string)).toEqual({
      type: "result",
      outcome: "failed",
      badge: end.badge,
      usage: end.usage,
      costUsd: 0.0123,
      sessionId: "ses_1",
      durationMs: 1500,
      reason: "upstream down",
    });
  });

  it("json: one object with the last assistant text of the main agent", () => {
    const { out, io } = capture();
    const f = outputFor("json", io);
    const finished = (seq: number, t: string, agentId?: string) =>
      envelope(
        seq,
        {
          type: "assistantFinished",
          message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: t }] },
          usage: end.usage,
          stopReason: "endTurn",
        } as EventEnvelope["event"],
        agentId,
      );
    f.onEvent(finished(0, "first"));
    f.onEvent(finished(1, "final"));
    f.onEvent(finished(2, "subagent", "agent_1"));
    f.finish(end);
    expect(out.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(out.stdout)).toMatchObject({ type: "result", text: "final" });
  });
});

describe("text output's thinking (`[appearance] show_thinking`)", () => {
  const events = [
    envelope(0, { type: "thinkingDelta", messageId: "m1" as never, text: "Which file? " }),
    envelope(1, { type: "thinkingDelta", messageId: "m1" as never, text: "auth.ts." }),
    envelope(2, { type: "textDelta", messageId: "m1" as never, text: "Fixed." }),
  ];
  it("goes to stderr, marked, when on; nowhere when off; stdout holds only the answer", () => {
    for (const show of [true, false]) {
      const { out, io } = capture();
      const output = outputFor("text", io, undefined, { showThinking: () => show });
      for (const e of events) output.onEvent(e);
      expect(out.stdout).toBe("Fixed.");
      if (show) expect(out.stderr).toBe("✻ thinking: Which file? auth.ts.\n");
      else expect(out.stderr).toBe("");
    }
  });
});
