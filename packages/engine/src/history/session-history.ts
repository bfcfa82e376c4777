import { join } from "node:path";
import {
  addUsage,
  type EngineEvent,
  type EventEnvelope,
  emptyUsage,
  type Message,
  PROTOCOL_VERSION,
  type SessionId,
  type TurnId,
  type Usage,
} from "@z-engine/protocol";
import { type LogRecord, readLog, StoreError } from "@z-engine/store";

/** A stored session told as the events a host would have seen (what a UI rebuilds its view from). */
export interface SessionHistory {
  /** The events, in log order; `seq` numbers this history from 0 (a later open restarts its own count). */
  readonly events: EventEnvelope[];
  /** Lines of the log that could not be read (damaged or of an unknown kind); they are skipped. */
  readonly skipped: number;
}

/** Events for one assistant message: its start, its tool calls, its end. */
function assistantEvents(message: Message, usage: Usage): EngineEvent[] {
  const events: EngineEvent[] = [{ type: "assistantStarted", messageId: message.id, model: "" }];
  const calls = message.content.flatMap((b) => (b.type === "toolUse" ? [b] : []));
  events.push({
    type: "assistantFinished",
    message,
    usage,
    stopReason: calls.length > 0 ? "toolUse" : "endTurn",
  });
  for (const call of calls) {
    events.push({
      type: "toolStarted",
      toolCallId: call.id,
      toolName: call.name,
      input: call.input,
      title: call.name,
    });
  }
  return events;
}

/** The events one record stands for (none for records a host never saw as an event). */
function eventsOf(record: LogRecord, total: { usage: Usage }): EngineEvent[] {
  switch (record.kind) {
    case "message":
      return record.message.role === "assistant"
        ? assistantEvents(record.message, emptyUsage())
        : [];
    case "turnStarted":
      return [
        {
          type: "turnStarted",
          turnId: record.turnId,
          userMessageId: record.userMessageId,
          prompt: record.prompt,
        },
      ];
    case "turnEnded":
      return [{ type: "turnFinished", ...fieldsOf(record) }];
    case "toolFinished":
      return [{ type: "toolFinished", ...fieldsOf(record) }];
    case "todos":
      return [{ type: "todosUpdated", todos: record.todos }];
    case "planProposed":
      return [{ type: "planProposed", plan: record.plan }];
    case "planResolved":
      return [{ type: "planResolved", ...fieldsOf(record) }];
    case "questionAsked":
      return [{ type: "questionAsked", question: record.question }];
    case "questionAnswered":
      return [{ type: "questionAnswered", ...fieldsOf(record) }];
    case "approvalRequested":
      return [{ type: "approvalRequested", ...fieldsOf(record), suggestedRules: [] }];
    case "approvalResolved":
      return [{ type: "approvalResolved", ...fieldsOf(record) }];
    case "check":
      return [{ type: "checkRecorded", record: record.record }];
    case "checkpoint":
      return [{ type: "checkpointCreated", checkpoint: record.checkpoint }];
    case "rewind":
      return [{ type: "rewound", ...fieldsOf(record) }];
    case "mode":
      return [{ type: "modeChanged", mode: record.mode }];
    case "model":
      return [{ type: "modelChanged", model: record.model }];
    case "effort":
      return [{ type: "effortChanged", effort: record.effort }];
    case "title":
      return [{ type: "titleChanged", title: record.title }];
    case "usage":
      if (record.agentId) return [];
      total.usage = addUsage(total.usage, record.usage);
      return [
        {
          type: "costUpdated",
          sessionUsage: total.usage,
          ...(record.source ? { source: record.source } : {}),
        },
      ];
    case "trust":
      return record.decision === "required" && record.withheld.length > 0
        ? [{ type: "trustRequired", projectRoot: record.projectRoot, withheld: record.withheld }]
        : [];
    case "notice":
      return [{ type: "notice", level: record.level, code: record.code, message: record.message }];
    default:
      return [];
  }
}

/** A record's own fields, without the log's `kind`, `v` and `ts`. */
function fieldsOf<R extends { kind: string; v: unknown; ts: unknown }>(
  record: R,
): Omit<R, "kind" | "v" | "ts"> {
  const { kind: _k, v: _v, ts: _t, ...rest } = record;
  return rest;
}

/** The turn an event belongs to, for its envelope. */
function turnOf(record: LogRecord, current: TurnId | undefined): TurnId | undefined {
  if (record.kind === "turnStarted") return record.turnId;
  if (record.kind === "message" && record.turnId) return record.turnId;
  return current;
}

/**
 * Tells the log records of a session as the events a host would have seen, in order. Streaming
 * deltas are not in the log: each finished message comes as `assistantStarted` then
 * `assistantFinished` (with zero usage: prices come as `costUpdated`). Subagent records are left
 * out. Never throws.
 */
export function historyEvents(
  sessionId: SessionId,
  records: readonly LogRecord[],
): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  const total = { usage: emptyUsage() };
  let turnId: TurnId | undefined;
  for (const record of records) {
    turnId = turnOf(record, turnId);
    for (const event of eventsOf(record, total)) {
      out.push({
        v: PROTOCOL_VERSION,
        sessionId,
        seq: out.length,
        ts: record.ts,
        ...(turnId ? { turnId } : {}),
        event,
      });
    }
    if (record.kind === "turnEnded") turnId = undefined;
  }
  return out;
}

/**
 * Reads a stored session's log (without taking its lock: a session open elsewhere can be read)
 * and tells it as events ({@link historyEvents}). Rejects with the store's `StoreError` for a malformed id
 * (`invalidSessionId`), a session with no log (`notFound`) or the file cannot be read; damaged lines are skipped and
 * counted.
 */
export async function readSessionHistory(dataDir: string, id: string): Promise<SessionHistory> {
  if (!/^[A-Za-z0-9_-]+$/.test(id))
    throw new StoreError("invalidSessionId", `invalid session id ${JSON.stringify(id)}`);
  const log = await readLog(join(dataDir, "sessions", id, "log.jsonl"));
  return {
    events: historyEvents(id as SessionId, log.records),
    skipped: log.damage.length + log.unknown.length,
  };
}
