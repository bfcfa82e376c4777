import type { ArtifactSink, SessionId } from "@z-engine/protocol";
import { appendFailedError, StoreError } from "./errors.js";
import { serialise } from "./log-writer.js";
import type { LogRecord } from "./records.js";
import { type LogName, parseLog, type RecordBackend } from "./record-backend.js";
import { type ReplayFold, replay } from "./replay.js";
import type { AgentTranscript, Session } from "./session-store.js";

const SAFE_AGENT_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** What a record session is made of (`createSessionStore` builds it). */
export interface RecordSessionParts {
  readonly id: SessionId;
  readonly backend: RecordBackend;
  readonly fold: ReplayFold;
  readonly artifacts: ArtifactSink;
  readonly read: (name: LogName) => Promise<string | undefined>;
  /** Called once, on close. */
  readonly release: () => void;
  /** The log ends in a torn line: the first append starts a new line, so the fragment stays one damaged line. */
  readonly torn: boolean;
}

/** A session over a `RecordBackend` (see `Session`). */
export class RecordSession implements Session {
  readonly id: SessionId;
  readonly artifacts: ArtifactSink;
  private readonly parts: RecordSessionParts;
  // One chain per log keeps appends in call order and never overlapping.
  private readonly chains = new Map<string, Promise<void>>();
  private closed: Promise<void> | null = null;
  private torn: boolean;

  constructor(parts: RecordSessionParts) {
    this.id = parts.id;
    this.artifacts = parts.artifacts;
    this.parts = parts;
    this.torn = parts.torn;
  }

  append(record: LogRecord): Promise<void> {
    return this.appendAll([record]);
  }

  /** Appends several records in one backend call, in order; all or none. */
  appendAll(records: readonly LogRecord[]): Promise<void> {
    return this.enqueue({ sessionId: this.id }, records, () => {
      for (const record of records) this.parts.fold.apply(record);
    });
  }

  appendAgent(agentId: string, record: LogRecord): Promise<void> {
    if (!SAFE_AGENT_ID.test(agentId))
      return Promise.reject(
        new StoreError("invalidRecord", `agent id ${JSON.stringify(agentId)} is not a safe name`),
      );
    return this.enqueue({ sessionId: this.id, agentId }, [record], () => {});
  }

  async readAgent(agentId: string): Promise<AgentTranscript> {
    await this.chains.get(`${this.id}/${agentId}`);
    const text = SAFE_AGENT_ID.test(agentId)
      ? await this.parts.read({ sessionId: this.id, agentId })
      : undefined;
    if (text === undefined) throw new StoreError("notFound", `no transcript of agent ${agentId}`);
    const { records } = parseLog(text);
    return { records, replay: replay(records) };
  }

  workingSet() {
    return this.parts.fold.workingSet();
  }

  snapshot() {
    return this.parts.fold.snapshot();
  }

  async transcript() {
    return this.parts.fold.snapshot().transcript;
  }

  async sync(): Promise<void> {
    await Promise.all(this.chains.values());
  }

  close(): Promise<void> {
    this.closed ??= this.sync().finally(() => this.parts.release());
    return this.closed;
  }

  private enqueue(name: LogName, records: readonly LogRecord[], then: () => void): Promise<void> {
    if (this.closed)
      return Promise.reject(new StoreError("closed", `session ${this.id} is closed`));
    let text: string;
    try {
      text = serialise(records);
    } catch (error) {
      return Promise.reject(error);
    }
    if (name.agentId === undefined && this.torn) {
      text = `\n${text}`;
      this.torn = false;
    }
    const key = name.agentId === undefined ? name.sessionId : `${name.sessionId}/${name.agentId}`;
    const previous = this.chains.get(key) ?? Promise.resolve();
    const done = previous.then(async () => {
      try {
        await this.parts.backend.append(name, text);
      } catch (error) {
        throw appendFailedError(key, error);
      }
      then();
    });
    this.chains.set(
      key,
      done.catch(() => {}),
    );
    return done;
  }
}
