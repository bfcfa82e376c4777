import type { SessionId } from "@z-engine/protocol";
import {
  type AgentTranscript,
  type LogRecord,
  metaFromReplay,
  ReplayFold,
  replay,
  type Session,
  StoreError,
} from "@z-engine/store";
import {
  type BatchOutcome,
  type PendingRecord,
  recordLine,
  takeBatch,
  writeBatch,
} from "./append-queue.js";
import type { PostgresArtifactSink } from "./artifacts.js";
import { type Database, query } from "./database.js";
import { parseRows, type RecordRow } from "./rows.js";

const SAFE_AGENT_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** What a session handle is made of (the store builds it once it holds the lease). */
export interface PostgresSessionParts {
  readonly id: SessionId;
  readonly db: Database;
  /** The lease token: every write is fenced by it. */
  readonly token: string;
  readonly fold: ReplayFold;
  /** The session's sequence (rows written so far) and log size when it was opened. */
  readonly seq: number;
  readonly logBytes: number;
  readonly artifacts: PostgresArtifactSink;
  /** Called once, when the handle closes. */
  readonly onClose: () => void;
}

/**
 * A session open for writing in Postgres (see `Session`). Appends are queued in call order
 * and written in batches, each one statement fenced by the lease (group commit: while one
 * batch commits, the next gathers); an append resolves once its batch committed, and only
 * then is it folded. The lease is renewed every third of its length; a
 * lost lease makes every later append reject with `locked`.
 */
export class PostgresSession implements Session {
  readonly id: SessionId;
  readonly artifacts: PostgresArtifactSink;
  readonly transcriptPath = undefined;
  private readonly db: Database;
  private readonly token: string;
  private fold: ReplayFold;
  private seq: number;
  private logBytes: number;
  private readonly queue: PendingRecord[] = [];
  private flushing: Promise<void> | null = null;
  private failure: StoreError | null = null;
  private closing: Promise<void> | null = null;
  private metaChain: Promise<void> = Promise.resolve();
  private readonly renewal: NodeJS.Timeout;
  private readonly onClose: () => void;

  constructor(parts: PostgresSessionParts) {
    this.id = parts.id;
    this.db = parts.db;
    this.token = parts.token;
    this.fold = parts.fold;
    this.seq = parts.seq;
    this.logBytes = parts.logBytes;
    this.artifacts = parts.artifacts;
    this.onClose = parts.onClose;
    this.renewal = setInterval(() => void this.renew(), Math.max(50, parts.db.leaseMs / 3));
    this.renewal.unref();
  }

  append(record: LogRecord): Promise<void> {
    return this.enqueue("", record);
  }

  appendAgent(agentId: string, record: LogRecord): Promise<void> {
    if (!SAFE_AGENT_ID.test(agentId))
      return Promise.reject(
        new StoreError("invalidRecord", `agent id ${JSON.stringify(agentId)} is not a safe name`),
      );
    return this.enqueue(agentId, record);
  }

  /** Appends several records of the session's own log, in order (each settles on its own batch). */
  appendAll(records: readonly LogRecord[]): Promise<void> {
    return Promise.all(records.map((r) => this.append(r))).then(() => {});
  }

  async readAgent(agentId: string): Promise<AgentTranscript> {
    await this.flushing;
    const rows = SAFE_AGENT_ID.test(agentId) ? await this.rows(agentId) : [];
    if (rows.length === 0) throw new StoreError("notFound", `no transcript of agent ${agentId}`);
    const { records } = parseRows(rows);
    return { records, replay: replay(records) };
  }

  workingSet() {
    return this.fold.workingSet();
  }

  snapshot() {
    return this.fold.snapshot();
  }

  async transcript() {
    const now = this.fold.snapshot();
    if (!now.earlierHistory) return now.transcript;
    return replay(parseRows(await this.rows("")).records).transcript;
  }

  /** Waits for every queued append (each is durable once committed) and writes the chat-list meta. */
  async sync(): Promise<void> {
    await this.flushing;
    this.queueMeta();
    await this.metaChain;
  }

  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  private async closeOnce(): Promise<void> {
    clearInterval(this.renewal);
    try {
      await this.flushing;
      if (this.failure === null) {
        this.queueMeta();
        await this.metaChain;
        await this.db.pool.query(this.db.sql.release, [this.id, this.token]).catch(() => {});
      }
    } finally {
      this.onClose();
    }
  }

  private enqueue(agentId: string, record: LogRecord): Promise<void> {
    if (this.closing)
      return Promise.reject(new StoreError("closed", `session ${this.id} is closed`));
    if (this.failure) return Promise.reject(this.failure);
    let line: string;
    try {
      line = recordLine(record);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ agentId, record, line, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  // One batch at a time, in order: what queues while a batch commits goes in the next one.
  // `flushing` is cleared in the same tick the queue is seen empty, so an append queued
  // after that starts the next flush (never waits on one that has ended).
  private async flush(): Promise<void> {
    for (;;) {
      if (this.queue.length === 0) {
        this.flushing = null;
        return;
      }
      const batch = takeBatch(this.queue);
      if (this.failure) {
        for (const p of batch) p.reject(this.failure);
        continue;
      }
      const outcome = await writeBatch(this.db, this.position(), batch);
      if (outcome.status !== "committed") {
        this.fail(outcome, batch);
        continue;
      }
      this.seq += batch.length;
      for (const p of batch) this.logBytes += Buffer.byteLength(p.line) + 1;
      await this.foldCommitted(batch);
    }
  }

  private position() {
    return { id: this.id, token: this.token, seq: this.seq };
  }

  private fail(outcome: BatchOutcome, batch: readonly PendingRecord[]): void {
    const cause = "error" in outcome ? outcome.error : undefined;
    const error =
      outcome.status === "leaseLost"
        ? new StoreError("locked", `session ${this.id}: its lease was taken over by another writer`)
        : new StoreError(
            "appendFailed",
            `cannot append to session ${this.id}: ${(cause as Error).message}`,
            {
              cause,
            },
          );
    // A lost lease or an unknown outcome ends this handle; a plain failure loses only its batch.
    if (outcome.status !== "failed") this.failure = error;
    for (const p of batch) p.reject(error);
  }

  private async foldCommitted(batch: readonly PendingRecord[]): Promise<void> {
    let compacted = false;
    let titled = false;
    for (const p of batch) {
      if (p.agentId !== "") continue;
      this.fold.apply(p.record);
      compacted ||= p.record.kind === "compaction";
      titled ||= p.record.kind === "title";
    }
    // A rewind before the resume point this fold started from: fold the whole log first.
    if (this.fold.missedHistory) await this.foldWholeLog();
    for (const p of batch) p.resolve();
    if (titled) this.queueMeta();
    if (compacted) await this.writeResumePoint();
  }

  /**
   * After a compaction: the fold as a `resumePoint` row, so that the next open reads from it.
   * Derived data: a failure only makes the next open start from an earlier point.
   */
  private async writeResumePoint(): Promise<void> {
    const point = this.fold.resumePoint();
    let line: string;
    try {
      line = recordLine(point);
    } catch {
      return;
    }
    const pending: PendingRecord = { agentId: "", record: point, line, resolve() {}, reject() {} };
    const outcome = await writeBatch(this.db, this.position(), [pending]);
    if (outcome.status !== "committed") {
      if (outcome.status !== "failed") this.fail(outcome, []);
      return;
    }
    this.seq += 1;
    this.logBytes += Buffer.byteLength(line) + 1;
    this.fold.apply(point);
  }

  private async foldWholeLog(): Promise<void> {
    try {
      const fold = new ReplayFold();
      for (const record of parseRows(await this.rows("")).records) fold.apply(record);
      this.fold = fold;
    } catch {
      // The read failed: the fold keeps its warning; the next open folds the whole log.
    }
  }

  private async rows(agentId: string): Promise<RecordRow[]> {
    const what = `cannot read the log of ${this.id}`;
    return (await query<RecordRow>(this.db, this.db.sql.readLog, [this.id, agentId], "io", what))
      .rows;
  }

  private async renew(): Promise<void> {
    if (this.failure || this.closing) return;
    try {
      const result = await this.db.pool.query(this.db.sql.renew, [
        this.id,
        this.token,
        this.db.leaseMs,
      ]);
      if (result.rowCount === 0 && !this.closing)
        this.failure = new StoreError(
          "locked",
          `session ${this.id}: its lease was taken over by another writer`,
        );
    } catch {
      // Unreachable for now: the next renewal or append tries again before the lease runs out.
    }
  }

  // Meta writes are serialised; a failure only leaves the chat list stale (the log is the
  // truth, and the next open rebuilds it).
  private queueMeta(): void {
    const meta = metaFromReplay(this.id, this.fold.snapshot(), this.logBytes, Date.now());
    const values = [
      this.id,
      this.token,
      JSON.stringify(meta),
      this.seq,
      this.logBytes,
      meta.updatedAt,
    ];
    this.metaChain = this.metaChain
      .then(() => this.db.pool.query(this.db.sql.writeMeta, values))
      .then(
        () => {},
        () => {},
      );
  }
}
