import type { EngineEvent, EventEnvelope } from "@z-engine/protocol";

type Fields = Record<string, unknown>;

/** The log record kind of each event that is recorded before it is emitted. */
const RECORD_KIND: Readonly<Record<string, string>> = {
  turnStarted: "turnStarted",
  turnFinished: "turnEnded",
  assistantFinished: "message",
  toolFinished: "toolFinished",
  approvalRequested: "approvalRequested",
  approvalResolved: "approvalResolved",
  questionAsked: "questionAsked",
  questionAnswered: "questionAnswered",
  planProposed: "planProposed",
  planResolved: "planResolved",
  todosUpdated: "todos",
  notice: "notice",
  checkRecorded: "check",
  checkpointCreated: "checkpoint",
  compacted: "compaction",
  rewound: "rewind",
  modeChanged: "mode",
  modelChanged: "model",
  effortChanged: "effort",
  titleChanged: "title",
};

/** JSON with sorted keys, so equal values give equal text. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value as Fields)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** What identifies a fact, by record kind: ids where it has them, else all its fields. */
function identity(kind: string, fields: Fields): string {
  switch (kind) {
    case "turnStarted":
      return String(fields.turnId);
    case "turnEnded":
      return `${String(fields.turnId)}:${String(fields.outcome)}`;
    case "toolFinished":
      return `${String(fields.toolCallId)}:${String(fields.status)}`;
    case "approvalRequested":
    case "approvalResolved":
      return String(fields.approvalId);
    case "message":
      return String((fields.message as Fields | undefined)?.id);
    case "compaction":
      return String(((fields.compaction as Fields | undefined)?.summary as Fields | undefined)?.id);
    case "checkpoint":
      return String((fields.checkpoint as Fields | undefined)?.id);
    default: {
      const { kind: _k, v: _v, ts: _t, type: _type, ...rest } = fields;
      return stable(rest);
    }
  }
}

/** The key of the record an acknowledged event stands for; undefined for live-only events. */
export function eventKey(event: EngineEvent): string | undefined {
  const kind = RECORD_KIND[event.type];
  if (kind === undefined) return undefined;
  const fields = event as unknown as Fields;
  if (event.type === "compacted") return `compaction|${event.marker.summaryMessageId}`;
  if (event.type === "approvalRequested") {
    const { preview: _p, suggestedRules: _s, ...rest } = fields;
    return `${kind}|${identity(kind, rest)}`;
  }
  return `${kind}|${identity(kind, fields)}`;
}

/** The key of a log record, comparable with {@link eventKey}. */
export function recordKey(record: Fields): string {
  const kind = String(record.kind);
  return `${kind}|${identity(kind, record)}`;
}

/** The envelopes among stdout lines (the result line and anything else are left out). */
export function envelopesOf(lines: readonly string[]): EventEnvelope[] {
  const out: EventEnvelope[] = [];
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const v = value as { event?: unknown; sessionId?: unknown };
    if (typeof v.event === "object" && v.event !== null && typeof v.sessionId === "string")
      out.push(value as EventEnvelope);
  }
  return out;
}

/**
 * The acknowledged events (they reached stdout) whose record is in none of `records`: each
 * is a lost record. Live-only events (deltas, progress, retries) are not records.
 */
export function lostRecords(
  envelopes: readonly EventEnvelope[],
  records: readonly Fields[],
): EngineEvent[] {
  const have = new Set(records.map(recordKey));
  return envelopes
    .map((e) => e.event)
    .filter((event) => {
      const key = eventKey(event);
      return key !== undefined && !have.has(key);
    });
}
