import {
  type AgentId,
  type EngineEvent,
  type EventEnvelope,
  PROTOCOL_VERSION,
  type SessionId,
  type TurnId,
} from "@z-engine/protocol";
import { createRedactor, type Redactor } from "../util/secrets.js";
import { type LogRecordFields, type LogRecordKind, logRecord, type Session } from "@z-engine/store";

/** The one place a session's events leave the engine. */
export type EventSink = (envelope: EventEnvelope) => void;

/** Where an event comes from: its turn, and the subagent when not the main agent. */
export interface EventScope {
  readonly turnId?: TurnId;
  readonly agentId?: AgentId;
}

/**
 * Record before emit (design.md §2): `record` appends to the session log and only then
 * emits the matching event; `emit` sends a live-only event (deltas, progress). Envelopes get
 * strictly increasing `seq` numbers. A sink that throws never breaks the session. This is the
 * one redaction point: known secret values (the engine's keys) never reach the log or a host.
 */
export class Journal {
  private readonly counter: { seq: number };

  constructor(
    readonly sessionId: SessionId,
    private readonly log: Pick<Session, "append">,
    private readonly sink: EventSink,
    private readonly clock: () => number,
    /** Known secret values are replaced by `[redacted]` in every record and event. */
    readonly redactor: Redactor = createRedactor([]),
    /** Set on a subagent's journal: its events carry this agent's id. */
    readonly agentId?: AgentId,
    shared?: { seq: number },
  ) {
    this.counter = shared ?? { seq: 0 };
  }

  /**
   * A journal for a subagent: records go to `log` (its own transcript, such as
   * `agents/<id>.jsonl` through the store's `appendAgent`), events leave through the same
   * sink with `agentId` set and the same `seq` sequence, and the same redaction applies.
   */
  forAgent(agentId: AgentId, log: Pick<Session, "append">): Journal {
    return new Journal(
      this.sessionId,
      log,
      this.sink,
      this.clock,
      this.redactor,
      agentId,
      this.counter,
    );
  }

  /** Appends a record (rejects with the store's error when the disk refuses it), then emits `event`. */
  async record<K extends LogRecordKind>(
    kind: K,
    fields: LogRecordFields<K>,
    event?: EngineEvent,
    scope: EventScope = {},
  ): Promise<void> {
    const entry = logRecord(kind, this.redactor.value(fields), this.clock());
    await this.log.append(entry);
    if (event) this.emit(event, scope);
  }

  /** Emits an event that changes no lasting state. */
  emit(event: EngineEvent, scope: EventScope = {}): void {
    const envelope: EventEnvelope = {
      v: PROTOCOL_VERSION,
      sessionId: this.sessionId,
      seq: this.counter.seq++,
      ts: this.clock(),
      ...((scope.agentId ?? this.agentId) ? { agentId: scope.agentId ?? this.agentId } : {}),
      ...(scope.turnId ? { turnId: scope.turnId } : {}),
      event: this.redactor.value(event),
    };
    try {
      this.sink(envelope);
    } catch {
      // A host's sink failing must not break the session; the record is already on disk.
    }
  }

  /** A notice: recorded (it outlives the moment) and emitted. Never rejects. */
  async notice(
    level: "info" | "warning" | "error",
    code: string,
    message: string,
    scope: EventScope = {},
  ): Promise<void> {
    const event = { type: "notice", level, code, message } as const;
    try {
      await this.record("notice", { level, code, message }, event, scope);
    } catch {
      this.emit(event, scope);
    }
  }
}
