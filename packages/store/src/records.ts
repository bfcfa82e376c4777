import {
  AgentId,
  Compaction,
  lastingEvents,
  lazily,
  Message,
  MessageId,
  SessionId,
  SpendSource,
  ToolCallId,
  ToolResultClearing,
  TurnId,
  once,
  Usage,
} from "@z-engine/protocol";
import { z } from "zod";

/** The format version of every record and of meta.json. */
export const STORE_FORMAT_VERSION = 2;

const record = <K extends string, S extends z.ZodRawShape>(kind: K, shape: S) =>
  z.object({ kind: z.literal(kind), v: z.literal(STORE_FORMAT_VERSION), ts: z.number(), ...shape });

/**
 * The fields of a lasting event (protocol's `lastingEvents`), without its `type`: the record of
 * the same fact takes them as they are, so each is declared once, in the event.
 */
const fieldsOf = <S extends { type: z.ZodType }>(event: z.ZodObject<S>): Omit<S, "type"> => {
  const { type: _type, ...fields } = event.shape;
  return fields;
};

const E = lastingEvents;

/** The task view record: a reduced working set, or the full history brought back. */
const taskViewRecord = () =>
  z.union([
    record("taskView", {
      /** Messages of the full working set to keep, in the order they are sent. */
      keptMessageIds: z.array(MessageId),
      /** A message placed first, describing what was left out. */
      indexMessage: Message,
      restored: z.literal(false).optional(),
    }),
    record("taskView", { restored: z.literal(true) }),
  ]);

/** A subagent's start (its transcript goes to `agents/<agentId>.jsonl`) and its end. */
const agentRecords = () =>
  [
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
  ] as const;

/**
 * One priced model response (of the session or one of its subagents). A fast-model call
 * names its `source`, and the tool call that caused it when a tool did (WebFetch).
 */
const usageRecord = () =>
  record("usage", {
    usage: Usage,
    model: z.string().optional(),
    turnId: TurnId.optional(),
    agentId: AgentId.optional(),
    source: SpendSource.optional(),
    toolName: z.string().optional(),
    toolCallId: ToolCallId.optional(),
  });

/**
 * A workspace-trust request or its answer: the request's fields, the answer added (and an
 * answer may name no withheld setting).
 */
const trustRecord = () =>
  record(
    "trust",
    fieldsOf(
      E.trustRequired.extend({
        withheld: z.array(z.string()),
        decision: z.enum(["required", "trusted", "dismissed"]),
      }),
    ),
  );

/**
 * Written by the file store right after a compaction: the fold at that point (the working
 * set without and with a task view, the session state, total usage), so that a resume
 * starts here instead of at the first line. Derived data: replay ignores it.
 */
const resumePointRecord = () =>
  record("resumePoint", {
    base: z.array(Message),
    view: z.array(Message).nullable(),
    /** The replay's `ReplayState` at this point (counts included). */
    state: z.looseObject({ messageCount: z.number(), turnCount: z.number() }),
    totalUsage: Usage,
  });

// Built on first use (protocol's `lazily`): a new session writes records without parsing one.
const logRecordSchema = once(() =>
  z.union([
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
      record("turnStarted", fieldsOf(E.turnStarted)),
      record("turnEnded", fieldsOf(E.turnFinished)),
      /** A tool call's end, for the display (its result is in the next user message). */
      record("toolFinished", fieldsOf(E.toolFinished)),
      record("todos", fieldsOf(E.todosUpdated)),
      record("planProposed", fieldsOf(E.planProposed)),
      record("planResolved", fieldsOf(E.planResolved)),
      record("questionAsked", fieldsOf(E.questionAsked)),
      record("questionAnswered", fieldsOf(E.questionAnswered)),
      /** The request without its live-only preview and suggested rules. */
      record(
        "approvalRequested",
        fieldsOf(E.approvalRequested.omit({ preview: true, suggestedRules: true })),
      ),
      record("approvalResolved", fieldsOf(E.approvalResolved)),
      ...agentRecords(),
      record("check", fieldsOf(E.checkRecorded)),
      record("checkpoint", fieldsOf(E.checkpointCreated)),
      record("compaction", { compaction: Compaction }),
      /** Old tool results cleared from the working set; the originals went to artifacts. */
      record("toolResultsCleared", { clearing: ToolResultClearing }),
      /** The conversation moves back to before `messageId`; cost already spent stays. */
      record("rewind", fieldsOf(E.rewound)),
      record("mode", fieldsOf(E.modeChanged)),
      record("model", fieldsOf(E.modelChanged)),
      record("effort", fieldsOf(E.effortChanged)),
      record("title", fieldsOf(E.titleChanged)),
      usageRecord(),
      trustRecord(),
      resumePointRecord(),
      /** A lasting notice, e.g. a settings file that was skipped. */
      record("notice", fieldsOf(E.notice)),
    ]),
    taskViewRecord(),
  ]),
);
/**
 * One line of a session log, tagged by `kind`. Every record carries `v: 2` and `ts`
 * (milliseconds since the epoch). Unknown kinds found on disk are kept and skipped.
 */
export const LogRecord = lazily(logRecordSchema);
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
