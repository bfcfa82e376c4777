import {
  applyCompaction,
  applyToolResultClearing,
  type Compaction,
  type QuestionId,
  type PlanId,
  type ToolResultClearing,
} from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { type LogRecord, logRecord } from "./records.js";
import { replay } from "./replay.js";
import { closingRecords, INTERRUPTED_TOOL_RESULT } from "./resume.js";
import {
  assistantCall,
  badge,
  cid,
  mid,
  msg,
  sampleRecords,
  tid,
  toolResult,
  usage,
  userText,
} from "./test-helpers.js";

const ids = (messages: readonly { id: string }[]) => messages.map((m) => m.id);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A two-turn conversation with a tool call in each turn. */
function conversation(): LogRecord[] {
  return [
    logRecord("turnStarted", { turnId: tid("t1"), userMessageId: mid("u1"), prompt: "one" }, 1),
    msg(userText("u1", "one"), 1),
    msg(assistantCall("a1", "c1"), 2),
    msg(toolResult("r1", "c1", "result one"), 3),
    logRecord("usage", { usage: usage(0.25) }, 3),
    logRecord(
      "turnEnded",
      { turnId: tid("t1"), outcome: "completed", usage: usage(0.25), badge, durationMs: 3 },
      4,
    ),
    logRecord("turnStarted", { turnId: tid("t2"), userMessageId: mid("u2"), prompt: "two" }, 5),
    msg(userText("u2", "two"), 5),
    msg(assistantCall("a2", "c2"), 6),
    msg(toolResult("r2", "c2", "result two"), 7),
    logRecord("usage", { usage: usage(0.5) }, 7),
    logRecord(
      "turnEnded",
      { turnId: tid("t2"), outcome: "completed", usage: usage(0.5), badge, durationMs: 3 },
      8,
    ),
  ];
}

describe("replay: transcript and working set", () => {
  it("folds messages into the transcript and the working set, in order", () => {
    const result = replay(conversation());
    expect(ids(result.workingSet)).toEqual(["u1", "a1", "r1", "u2", "a2", "r2"]);
    expect(result.transcript.map((r) => r.kind)).toEqual([
      "turnStarted",
      "message",
      "message",
      "message",
      "turnEnded",
      "turnStarted",
      "message",
      "message",
      "message",
      "turnEnded",
    ]);
    expect(result.state).toMatchObject({
      messageCount: 6,
      turnCount: 2,
      createdAt: 1,
      updatedAt: 8,
    });
    expect(result.state.lastTurn).toEqual({ turnId: "t2", status: "ended", outcome: "completed" });
    expect(result.totalUsage.costUsd).toBeCloseTo(0.75);
    expect(result.resume.clean).toBe(true);
  });

  it("applies a compaction exactly as protocol's applyCompaction does", () => {
    const records = conversation();
    const before = replay(records).workingSet;
    const compaction: Compaction = {
      trigger: "manual",
      summary: userText("sum", "they talked"),
      droppedMessageIds: [mid("u1"), mid("a1"), mid("r1")],
      tokensBefore: 1000,
      tokensAfter: 100,
    };
    const result = replay([...records, logRecord("compaction", { compaction }, 9)]);
    expect(JSON.stringify(result.workingSet)).toBe(
      JSON.stringify(applyCompaction(before, compaction)),
    );
    expect(ids(result.workingSet)).toEqual(["sum", "u2", "a2", "r2"]);
    // The display keeps the history, with the compaction as a divider.
    expect(result.transcript.filter((r) => r.kind === "message")).toHaveLength(6);
    expect(result.transcript.at(-1)?.kind).toBe("compaction");
  });

  it("applies cleared tool results exactly as protocol's applyToolResultClearing does", () => {
    const records = conversation();
    const before = replay(records).workingSet;
    const artifact = {
      ref: "artifact:x",
      name: "x",
      bytes: 10,
      mediaType: "text/plain",
      truncated: false,
    };
    const clearing: ToolResultClearing = { calls: [{ toolUseId: cid("c1"), artifact }] };
    const result = replay([...records, logRecord("toolResultsCleared", { clearing }, 9)]);
    expect(JSON.stringify(result.workingSet)).toBe(
      JSON.stringify(applyToolResultClearing(before, clearing)),
    );
    expect(JSON.stringify(result.workingSet)).toContain("artifact:x");
    // The transcript still shows the original output.
    expect(JSON.stringify(result.transcript)).toContain("result one");
  });

  it("never changes the records it folds, and gives the same result twice", () => {
    const records = deepFreeze(conversation());
    expect(JSON.stringify(replay(records))).toBe(JSON.stringify(replay(records)));
  });
});

describe("replay: rewind", () => {
  it("drops the target message and everything after it from the working set and the display; cost stays", () => {
    const records = conversation();
    const rewind = logRecord(
      "rewind",
      { messageId: mid("u2"), restore: "both", restoredPaths: [], unstorable: [] },
      9,
    );
    const result = replay([...records, rewind]);
    expect(ids(result.workingSet)).toEqual(["u1", "a1", "r1"]);
    // The turn that began with u2 leaves the display too, its turnStarted included.
    expect(result.transcript.map((r) => r.kind)).toEqual([
      "turnStarted",
      "message",
      "message",
      "message",
      "turnEnded",
    ]);
    expect(result.state).toMatchObject({ messageCount: 3, turnCount: 1 });
    expect(result.totalUsage.costUsd).toBeCloseTo(0.75);
  });

  it("restores the working set as it was before the target, undoing later compactions", () => {
    const records = conversation();
    const compaction: Compaction = {
      trigger: "auto",
      summary: userText("sum", "s"),
      droppedMessageIds: [mid("u1"), mid("a1"), mid("r1"), mid("u2")],
      tokensBefore: 10,
      tokensAfter: 1,
    };
    const result = replay([
      ...records,
      logRecord("compaction", { compaction }, 9),
      logRecord(
        "rewind",
        { messageId: mid("a2"), restore: "conversation", restoredPaths: [], unstorable: [] },
        10,
      ),
    ]);
    expect(ids(result.workingSet)).toEqual(["u1", "a1", "r1", "u2"]);
  });

  it("leaves the conversation alone for a code-only rewind", () => {
    const records = conversation();
    const rewind = logRecord(
      "rewind",
      { messageId: mid("u2"), restore: "code", restoredPaths: ["src/a.ts"], unstorable: [] },
      9,
    );
    const before = replay(records);
    const after = replay([...records, rewind]);
    expect(ids(after.workingSet)).toEqual(ids(before.workingSet));
    expect(after.state.messageCount).toBe(before.state.messageCount);
  });

  it("continues after a rewind, and rewinds again", () => {
    const result = replay([
      ...conversation(),
      logRecord(
        "rewind",
        { messageId: mid("u2"), restore: "conversation", restoredPaths: [], unstorable: [] },
        9,
      ),
      msg(userText("u3", "three"), 10),
      logRecord(
        "rewind",
        { messageId: mid("a1"), restore: "conversation", restoredPaths: [], unstorable: [] },
        11,
      ),
      msg(userText("u4", "four"), 12),
    ]);
    expect(ids(result.workingSet)).toEqual(["u1", "u4"]);
  });

  it("ignores a rewind to an unknown message, with a warning", () => {
    const result = replay([
      ...conversation(),
      logRecord(
        "rewind",
        { messageId: mid("ghost"), restore: "both", restoredPaths: [], unstorable: [] },
        9,
      ),
    ]);
    expect(result.workingSet).toHaveLength(6);
    expect(result.warnings).toEqual(["rewind to unknown message ghost ignored"]);
  });
});

describe("replay: task views", () => {
  const view = (kept: string[]) =>
    logRecord(
      "taskView",
      { keptMessageIds: kept.map(mid), indexMessage: userText("idx", "index of the rest") },
      9,
    );

  it("sends the index message first, then the kept messages in the view's order", () => {
    const result = replay([...conversation(), view(["u2", "u1"])]);
    expect(ids(result.workingSet)).toEqual(["idx", "u2", "u1"]);
    expect(result.transcript.at(-1)?.kind).toBe("taskView");
  });

  it("adds later messages to the view, and a restored view brings back the full history with them", () => {
    const viewed = replay([...conversation(), view(["u2"]), msg(userText("u3", "three"), 10)]);
    expect(ids(viewed.workingSet)).toEqual(["idx", "u2", "u3"]);
    const restored = replay([
      ...conversation(),
      view(["u2"]),
      msg(userText("u3", "three"), 10),
      logRecord("taskView", { restored: true }, 11),
    ]);
    expect(ids(restored.workingSet)).toEqual(["u1", "a1", "r1", "u2", "a2", "r2", "u3"]);
  });

  it("applies clearing inside a view and skips kept ids it does not know, with a warning", () => {
    const clearing: ToolResultClearing = { calls: [{ toolUseId: cid("c2"), artifact: null }] };
    const result = replay([
      ...conversation(),
      view(["r2", "nope"]),
      logRecord("toolResultsCleared", { clearing }, 10),
    ]);
    expect(ids(result.workingSet)).toEqual(["idx", "r2"]);
    expect(JSON.stringify(result.workingSet[1])).toContain("Old tool result cleared");
    expect(result.warnings).toEqual(["task view keeps unknown message nope"]);
  });
});

describe("replay: session state", () => {
  it("keeps the latest mode, model, effort, title and todos, and the open questions and plans", () => {
    const s = sampleRecords();
    const result = replay([
      s.session,
      s.mode,
      s.model,
      s.effort,
      s.title,
      s.todos,
      s.questionAsked,
      s.planProposed,
      s.check,
      s.checkpoint,
      logRecord("mode", { mode: "acceptEdits" }, 2),
    ]);
    expect(result.state).toMatchObject({
      sessionId: "ses_1",
      projectRoot: "/p",
      mode: "acceptEdits",
      model: "m1",
      effort: "high",
      title: "A title",
      todos: [{ content: "do it", status: "pending" }],
    });
    expect(result.state.openQuestions.map((q) => q.id)).toEqual(["q_1"]);
    expect(result.state.openPlans.map((p) => p.id)).toEqual(["plan_1"]);
    expect(result.state.checks).toHaveLength(1);
    expect(result.state.checkpoints).toHaveLength(1);
    const answered = replay([s.questionAsked, s.planProposed, s.questionAnswered, s.planResolved]);
    expect(answered.state.openQuestions).toEqual([]);
    expect(answered.state.openPlans).toEqual([]);
  });

  it("sums the cost of every priced response, subagents included", () => {
    const result = replay([
      logRecord("usage", { usage: usage(1) }, 1),
      logRecord("usage", { usage: usage(2), agentId: "agent_1" as never }, 2),
    ]);
    expect(result.totalUsage).toEqual({
      input: 20,
      output: 10,
      cacheRead: 0,
      cacheWrite: 0,
      costUsd: 3,
    });
  });
});

describe("resume report", () => {
  function crashedSession(): LogRecord[] {
    const s = sampleRecords();
    return [
      ...conversation(),
      logRecord("turnStarted", { turnId: tid("t3"), userMessageId: mid("u3"), prompt: "three" }, 9),
      msg(userText("u3", "three"), 9),
      msg(
        {
          id: mid("a3"),
          role: "assistant",
          content: [
            { type: "toolUse", id: cid("c3"), name: "Bash", input: {} },
            { type: "toolUse", id: cid("c4"), name: "Agent", input: {} },
          ],
        },
        10,
      ),
      logRecord(
        "approvalRequested",
        {
          approvalId: "appr_9" as never,
          toolCallId: cid("c3"),
          toolName: "Bash",
          title: "rm",
          reason: "ask",
        },
        11,
      ),
      s.agentStarted,
      s.questionAsked,
      s.planProposed,
    ];
  }

  it("lists the unfinished turn, calls without results, running agents, open questions and plans", () => {
    const { resume, state } = replay(crashedSession());
    expect(state.lastTurn).toEqual({ turnId: "t3", status: "running" });
    expect(resume).toMatchObject({
      clean: false,
      unfinishedTurn: "t3",
      pendingToolCalls: [
        { toolCallId: "c3", toolName: "Bash", messageId: "a3" },
        { toolCallId: "c4", toolName: "Agent", messageId: "a3" },
      ],
      runningAgents: ["agent_1"],
      openApprovals: [{ approvalId: "appr_9", toolCallId: "c3" }],
      openQuestions: ["q_1" as QuestionId],
      openPlans: ["plan_1" as PlanId],
    });
  });

  it("closing records answer every call as interrupted and leave a clean report", () => {
    const records = crashedSession();
    const closing = closingRecords(replay(records).resume, {
      badge,
      ts: 20,
      messageId: mid("int"),
    });
    expect(closing.map((r) => r.kind)).toEqual([
      "message",
      "approvalResolved",
      "agentFinished",
      "questionAnswered",
      "planResolved",
      "turnEnded",
    ]);
    const after = replay([...records, ...closing]);
    expect(after.resume.clean).toBe(true);
    expect(after.state.lastTurn).toEqual({ turnId: "t3", status: "ended", outcome: "interrupted" });
    const last = after.workingSet.at(-1);
    expect(last?.content).toEqual([
      {
        type: "toolResult",
        toolUseId: "c3",
        content: [{ type: "text", text: INTERRUPTED_TOOL_RESULT }],
        isError: true,
      },
      {
        type: "toolResult",
        toolUseId: "c4",
        content: [{ type: "text", text: INTERRUPTED_TOOL_RESULT }],
        isError: true,
      },
    ]);
  });

  it("has nothing to close for a clean session", () => {
    expect(closingRecords(replay(conversation()).resume, { badge })).toEqual([]);
  });
});
