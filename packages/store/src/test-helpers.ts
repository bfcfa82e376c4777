// Builders shared by this package's tests (not exported from index.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  AgentId,
  ApprovalId,
  Badge,
  CheckId,
  CheckpointId,
  CheckRunId,
  Message,
  MessageId,
  PlanId,
  QuestionId,
  SessionId,
  ToolCallId,
  TurnId,
} from "@z-engine/protocol";
import { type LogRecord, type LogRecordKind, logRecord } from "./records.js";

/** A temp folder, removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "zeng-store-"));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export const mid = (s: string) => s as MessageId;
export const cid = (s: string) => s as ToolCallId;
export const tid = (s: string) => s as TurnId;

export const usage = (costUsd: number) => ({
  input: 10,
  output: 5,
  cacheRead: 0,
  cacheWrite: 0,
  costUsd,
});

export const badge: Badge = { status: "notApplicable", reason: "no changes", checks: [] };

export function userText(id: string, text: string): Message {
  return { id: mid(id), role: "user", content: [{ type: "text", text }] };
}

export function assistantCall(id: string, callId: string, name = "Read"): Message {
  return {
    id: mid(id),
    role: "assistant",
    content: [
      { type: "text", text: `calling ${name}` },
      { type: "toolUse", id: cid(callId), name, input: { file_path: "/a.ts" } },
    ],
  };
}

export function toolResult(id: string, callId: string, text: string): Message {
  return {
    id: mid(id),
    role: "user",
    content: [
      {
        type: "toolResult",
        toolUseId: cid(callId),
        content: [{ type: "text", text }],
        isError: false,
      },
    ],
  };
}

export const msg = (message: Message, ts = 1) => logRecord("message", { message }, ts);

/** One valid record of every kind this version knows. */
export function sampleRecords(): Record<LogRecordKind, LogRecord> {
  const ts = 1_700_000_000_000;
  return { ...turnSamples(ts), ...workSamples(ts), ...settingSamples(ts) };
}

/** Samples of a turn's records: the conversation, tools, plans, questions and approvals. */
function turnSamples(ts: number) {
  const q = "q_1" as QuestionId;
  const plan = "plan_1" as PlanId;
  const appr = "appr_1" as ApprovalId;
  return {
    session: logRecord("session", { sessionId: "ses_1" as SessionId, projectRoot: "/p" }, ts),
    message: msg(userText("msg_1", "hello"), ts),
    turnStarted: logRecord(
      "turnStarted",
      { turnId: tid("t1"), userMessageId: mid("msg_1"), prompt: "hi" },
      ts,
    ),
    turnEnded: logRecord(
      "turnEnded",
      { turnId: tid("t1"), outcome: "completed", usage: usage(0.1), badge, durationMs: 5 },
      ts,
    ),
    toolFinished: logRecord(
      "toolFinished",
      { toolCallId: cid("c1"), toolName: "Read", status: "ok", durationMs: 3, writtenPaths: [] },
      ts,
    ),
    todos: logRecord("todos", { todos: [{ content: "do it", status: "pending" }] }, ts),
    planProposed: logRecord("planProposed", { plan: { id: plan, plan: "step 1" } }, ts),
    planResolved: logRecord("planResolved", { planId: plan, approved: true, dismissed: false }, ts),
    questionAsked: logRecord(
      "questionAsked",
      {
        question: {
          id: q,
          questions: [{ question: "Which?", options: [{ label: "A" }], multiSelect: false }],
        },
      },
      ts,
    ),
    questionAnswered: logRecord(
      "questionAnswered",
      { questionId: q, answers: { "Which?": "A" }, dismissed: false },
      ts,
    ),
    approvalRequested: logRecord(
      "approvalRequested",
      { approvalId: appr, toolCallId: cid("c1"), toolName: "Bash", title: "ls", reason: "ask" },
      ts,
    ),
    approvalResolved: logRecord(
      "approvalResolved",
      { approvalId: appr, toolCallId: cid("c1"), decision: { type: "allowOnce" }, by: "user" },
      ts,
    ),
  };
}

/** Samples of the work a session records: subagents, checks, checkpoints, compaction, rewinds. */
function workSamples(ts: number) {
  const agent = "agent_1" as AgentId;
  return {
    agentStarted: logRecord(
      "agentStarted",
      { agentId: agent, agentType: "explore", description: "look", background: false },
      ts,
    ),
    agentFinished: logRecord("agentFinished", { agentId: agent, status: "completed" }, ts),
    check: logRecord(
      "check",
      {
        record: {
          runId: "run_1" as CheckRunId,
          checkId: "npm:test" as CheckId,
          kind: "test",
          command: "npm test",
          cwd: ".",
          exitCode: 0,
          passed: true,
          counts: { passed: 3, failed: 0, skipped: 0 },
          startedAt: ts,
          durationMs: 10,
          outputTail: "ok",
          output: null,
          fingerprintBefore: "a",
          fingerprintAfter: "a",
        },
      },
      ts,
    ),
    checkpoint: logRecord(
      "checkpoint",
      {
        checkpoint: {
          id: "ckpt_1" as CheckpointId,
          turnId: tid("t1"),
          messageId: mid("msg_1"),
          createdAt: ts,
          commit: "abc",
          files: 2,
          unstorable: [],
        },
      },
      ts,
    ),
    compaction: logRecord(
      "compaction",
      {
        compaction: {
          trigger: "auto",
          summary: userText("msg_sum", "summary"),
          droppedMessageIds: [mid("msg_1")],
          tokensBefore: 100,
          tokensAfter: 10,
        },
      },
      ts,
    ),
    toolResultsCleared: logRecord(
      "toolResultsCleared",
      { clearing: { calls: [{ toolUseId: cid("c1"), artifact: null }] } },
      ts,
    ),
    rewind: logRecord(
      "rewind",
      { messageId: mid("msg_1"), restore: "conversation", restoredPaths: [], unstorable: [] },
      ts,
    ),
  };
}

/** Samples of the session's settings, spend, notices and derived records. */
function settingSamples(ts: number) {
  return {
    mode: logRecord("mode", { mode: "plan" }, ts),
    model: logRecord("model", { model: "m1" }, ts),
    effort: logRecord("effort", { effort: "high" }, ts),
    title: logRecord("title", { title: "A title" }, ts),
    usage: logRecord("usage", { usage: usage(0.5) }, ts),
    trust: logRecord("trust", { projectRoot: "/p", withheld: ["hooks"], decision: "required" }, ts),
    notice: logRecord("notice", { level: "warning", code: "settings", message: "skipped" }, ts),
    taskView: logRecord(
      "taskView",
      { keptMessageIds: [mid("msg_1")], indexMessage: userText("msg_idx", "index") },
      ts,
    ),
    resumePoint: logRecord(
      "resumePoint",
      {
        base: [userText("msg_1", "kept")],
        view: null,
        state: { messageCount: 1, turnCount: 0 },
        totalUsage: usage(0.5),
      },
      ts,
    ),
  };
}
