import {
  AgentId,
  ApprovalDecision,
  ApprovalId,
  Badge,
  CheckpointInfo,
  CheckRecord,
  Compaction,
  Effort,
  Message,
  MessageId,
  NoticeLevel,
  PermissionMode,
  Plan,
  PlanId,
  Question,
  QuestionAnswers,
  QuestionId,
  RewindRestore,
  SessionId,
  TodoItem,
  ToolCallId,
  ToolDisplay,
  ToolResultClearing,
  TurnId,
  TurnOutcome,
  Usage,
} from "@z-engine/protocol";
import { z } from "zod";

/** The format version of every record and of meta.json. */
export const STORE_FORMAT_VERSION = 2;

const record = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ kind: z.literal(kind), v: z.literal(STORE_FORMAT_VERSION), ts: z.number(), ...shape });

/** The task view record: a reduced working set, or the full history brought back. */
const TaskViewRecord = z.union([
  record("taskView", {
    /** Messages of the full working set to keep, in the order they are sent. */
    keptMessageIds: z.array(MessageId),
    /** A message placed first, describing what was left out. */
    indexMessage: Message,
    restored: z.literal(false).optional(),
  }),
  record("taskView", { restored: z.literal(true) }),
]);

/**
 * One line of a session log, tagged by `kind`. Every record carries `v: 2` and `ts`
 * (milliseconds since the epoch). Unknown kinds found on disk are kept and skipped.
 */
export const LogRecord = z.union([
  z.discriminatedUnion("kind", [
    /** The first record: who the session belongs to. */
    record("session", {
      sessionId: SessionId,
      /** The folder the session runs in; null for a chat imported from v1 (it had none). */
      projectRoot: z.string().nullable(),
      /** Set when the session was converted from a v1 chat file. */
      legacyFile: z.string().optional(),
    }),
    /** A finished message of the main conversation (never a streaming delta). */
    record("message", { message: Message, turnId: TurnId.optional() }),
    record("turnStarted", { turnId: TurnId, userMessageId: MessageId, prompt: z.string() }),
    record("turnEnded", {
      turnId: TurnId,
      outcome: TurnOutcome,
      usage: Usage,
      badge: Badge,
      durationMs: z.number().nonnegative(),
      reason: z.string().optional(),
    }),
    /** A tool call's end, for the display (its result is in the next user message). */
    record("toolFinished", {
      toolCallId: ToolCallId,
      toolName: z.string(),
      status: z.enum(["ok", "error", "denied", "cancelled"]),
      display: ToolDisplay.optional(),
      durationMs: z.number().nonnegative(),
      writtenPaths: z.array(z.string()),
    }),
    record("todos", { todos: z.array(TodoItem) }),
    record("planProposed", { plan: Plan }),
    record("planResolved", {
      planId: PlanId,
      approved: z.boolean(),
      feedback: z.string().optional(),
      dismissed: z.boolean(),
    }),
    record("questionAsked", { question: Question }),
    record("questionAnswered", {
      questionId: QuestionId,
      answers: QuestionAnswers,
      dismissed: z.boolean(),
    }),
    record("approvalRequested", {
      approvalId: ApprovalId,
      toolCallId: ToolCallId,
      toolName: z.string(),
      title: z.string(),
      reason: z.string(),
    }),
    record("approvalResolved", {
      approvalId: ApprovalId,
      toolCallId: ToolCallId,
      decision: ApprovalDecision,
      by: z.enum(["user", "hook", "headless", "cancelled"]),
      reason: z.string().optional(),
    }),
    /** A subagent started; its transcript goes to `agents/<agentId>.jsonl`. */
    record("agentStarted", {
      agentId: AgentId,
      agentType: z.string(),
      description: z.string(),
      background: z.boolean(),
      toolCallId: ToolCallId.optional(),
    }),
    record("agentFinished", {
      agentId: AgentId,
      status: z.enum(["completed", "failed", "cancelled"]),
      reason: z.string().optional(),
    }),
    record("check", { record: CheckRecord }),
    record("checkpoint", { checkpoint: CheckpointInfo }),
    record("compaction", { compaction: Compaction }),
    /** Old tool results cleared from the working set; the originals went to artifacts. */
    record("toolResultsCleared", { clearing: ToolResultClearing }),
    /** The conversation moves back to before `messageId`; cost already spent stays. */
    record("rewind", {
      messageId: MessageId,
      restore: RewindRestore,
      restoredPaths: z.array(z.string()),
      unstorable: z.array(z.string()),
    }),
    record("mode", { mode: PermissionMode }),
    record("model", { model: z.string().min(1) }),
    record("effort", { effort: Effort }),
    record("title", { title: z.string() }),
    /** One priced model response (of the session or one of its subagents). */
    record("usage", {
      usage: Usage,
      model: z.string().optional(),
      turnId: TurnId.optional(),
      agentId: AgentId.optional(),
    }),
    /** A workspace-trust request or its answer. */
    record("trust", {
      projectRoot: z.string(),
      withheld: z.array(z.string()),
      decision: z.enum(["required", "trusted", "dismissed"]),
    }),
    /**
     * Written by the file store right after a compaction: the fold at that point (the working
     * set without and with a task view, the session state, total usage), so that a resume
     * starts here instead of at the first line. Derived data: replay ignores it.
     */
    record("resumePoint", {
      base: z.array(Message),
      view: z.array(Message).nullable(),
      /** The replay's `SessionState` at this point (counts included). */
      state: z.looseObject({ messageCount: z.number(), turnCount: z.number() }),
      totalUsage: Usage,
    }),
    /** A lasting notice, e.g. a settings file that was skipped. */
    record("notice", { level: NoticeLevel, code: z.string(), message: z.string() }),
  ]),
  TaskViewRecord,
]);
/** One line of a session log. */
export type LogRecord = z.infer<typeof LogRecord>;
/** The record kinds this version knows. */
export type LogRecordKind = LogRecord["kind"];
/** The record of one kind, e.g. `LogRecordOf<"message">`. */
export type LogRecordOf<K extends LogRecordKind> = Extract<LogRecord, { kind: K }>;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** The fields of a record of one kind, without `kind`, `v` and `ts`. */
export type LogRecordFields<K extends LogRecordKind> = DistributiveOmit<
  LogRecordOf<K>,
  "kind" | "v" | "ts"
>;

/** Builds a record of `kind` with `v: 2` and `ts` (default: now). Never throws. */
export function logRecord<K extends LogRecordKind>(
  kind: K,
  fields: LogRecordFields<K>,
  ts: number = Date.now(),
): LogRecordOf<K> {
  return { kind, v: STORE_FORMAT_VERSION, ts, ...fields } as unknown as LogRecordOf<K>;
}
