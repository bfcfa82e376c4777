import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import { newSessionId, type SessionId } from "@z-engine/protocol";
import {
  type CreateSessionOptions,
  DEFAULT_ARTIFACT_MAX_BYTES,
  type OpenedSession,
  type OpenReport,
  metaFromReplay,
  type ReplayFold,
  type SessionStore,
  type SessionSummary,
  sessionStartRecords,
  StoreError,
} from "@z-engine/store";
import { PostgresArtifactSink } from "./artifacts.js";
import { type Database, query } from "./database.js";
import { foldFromResumePoint, summaryFromRows } from "./fold-rows.js";
import { migrate } from "./migrations.js";
import { PostgresSession } from "./postgres-session.js";
import { statements } from "./statements.js";

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions {
  /** Where the database is (`postgres://user@host:port/db`); ignored when `pool` is given. */
  readonly connectionString?: string;
  /** A host's own pool (the store never ends it); else the store makes one. */
  readonly pool?: pg.Pool;
  /** Connections of the pool the store makes (default 10). */
  readonly max?: number;
  /** The schema the tables live in (default `public`); created by the first migration. */
  readonly schema?: string;
  /**
   * How long a session's lease lasts without renewal, in ms (default 15,000). A writer
   * renews it every third of that; another process may take the session over only once it
   * has run out (a writer that died is replaced after at most this long).
   */
  readonly leaseMs?: number;
  /** Who this process is, shown to a second opener (default `<hostname>:<pid>`). */
  readonly owner?: string;
  /** Size limit of one artifact in bytes (default 16 MiB); longer data is cut. */
  readonly artifactMaxBytes?: number;
}

/** What opening a Postgres session found: the common report, and where its fold started. */
export interface PostgresOpenReport extends OpenReport {
  /** The seq of the resume point the open read from, or null when it read the whole log. */
  readonly resumePoint: number | null;
  /** The chat-list meta was rebuilt (it described another length of the log, or none). */
  readonly metaRebuilt: boolean;
}

/** `PostgresSessionStore.open`'s result. */
export interface PostgresOpenedSession extends OpenedSession {
  readonly session: PostgresSession;
  readonly report: PostgresOpenReport;
}

const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/**
 * Sessions in Postgres: a row per session (its lease, sequence and chat-list meta), a row
 * per record, a row per artifact (see the package README). Implements `SessionStore` with
 * the file store's guarantees across processes and machines.
 */
export class PostgresSessionStore implements SessionStore {
  private readonly db: Database;
  private readonly ownsPool: boolean;
  private readonly open_ = new Set<PostgresSession>();

  /** Use {@link createPostgresStore}, which applies the migrations first. */
  constructor(options: PostgresStoreOptions) {
    this.ownsPool = options.pool === undefined;
    const pool =
      options.pool ??
      new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10 });
    // An idle connection that breaks (a server restart) must not crash the host; the next
    // query gets a new connection or its own error.
    if (this.ownsPool) pool.on("error", () => {});
    this.db = {
      pool,
      sql: statements(options.schema ?? "public"),
      leaseMs: options.leaseMs ?? 15_000,
      owner: options.owner ?? `${hostname()}:${process.pid}`,
      artifactMaxBytes: options.artifactMaxBytes ?? DEFAULT_ARTIFACT_MAX_BYTES,
    };
  }

  /** The pool the store queries through. */
  get pool(): pg.Pool {
    return this.db.pool;
  }

  async create(options: CreateSessionOptions): Promise<PostgresSession> {
    if (options.id !== undefined && !SAFE_ID.test(options.id))
      throw new StoreError("invalidSessionId", `${JSON.stringify(options.id)} is not a session id`);
    const id = (options.id ?? newSessionId()) as SessionId;
    const token = randomUUID();
    const { db } = this;
    const values = [id, Date.now(), token, db.owner, db.leaseMs];
    await query(db, db.sql.insertSession, values, "io", `cannot create session ${id}`).catch(
      (error: StoreError) => {
        // 23505: unique_violation, the id is taken.
        if ((error.cause as { code?: string } | undefined)?.code === "23505")
          throw new StoreError("exists", `a session ${id} already exists`);
        throw error;
      },
    );
    const session = this.handle(id, token, foldFromResumePoint([]).fold, 0, 0);
    try {
      await session.appendAll(sessionStartRecords(id, options));
      await session.sync();
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  async open(id: string): Promise<PostgresOpenedSession> {
    this.safe(id);
    const { db } = this;
    const token = randomUUID();
    const taken = await query<{ next_seq: string; meta_seq: string; log_bytes: string }>(
      db,
      db.sql.acquire,
      [id, token, db.owner, db.leaseMs],
      "io",
      `cannot open session ${id}`,
    );
    const row = taken.rows[0];
    if (row === undefined) throw await this.notOpenable(id);
    try {
      const what = `cannot read the log of ${id}`;
      const { rows } = await query<{ seq: string; body: string }>(
        db,
        db.sql.readFromResumePoint,
        [id],
        "io",
        what,
      );
      let folded = foldFromResumePoint(rows);
      if (folded.fold.missedHistory) {
        const all = await query<{ seq: string; body: string }>(
          db,
          db.sql.readLog,
          [id, ""],
          "io",
          what,
        );
        folded = foldFromResumePoint(all.rows, { whole: true });
      }
      const seq = Number(row.next_seq);
      const logBytes = Number(row.log_bytes);
      const replay = folded.fold.snapshot();
      const metaRebuilt = Number(row.meta_seq) !== seq;
      if (metaRebuilt) {
        const meta = metaFromReplay(id, replay, logBytes, Date.now());
        const values = [id, token, JSON.stringify(meta), seq, logBytes, meta.updatedAt];
        await query(db, db.sql.writeMeta, values, "io", what);
      }
      const session = this.handle(id as SessionId, token, folded.fold, seq, logBytes);
      const { damage, unknown } = folded.parsed;
      const report = { damage, unknown, notices: [], resumePoint: folded.resumePoint, metaRebuilt };
      return { session, replay, report };
    } catch (error) {
      await db.pool.query(db.sql.release, [id, token]).catch(() => {});
      throw error;
    }
  }

  async list(): Promise<SessionSummary[]> {
    const { db } = this;
    const { rows } = await query<ListRow>(db, db.sql.list, [], "io", "cannot list the sessions");
    const out: SessionSummary[] = [];
    for (const row of rows) {
      const updatedAt = Number(row.updated_at);
      if (row.meta !== null) {
        out.push({
          ...row.meta,
          updatedAt: Math.max(row.meta.updatedAt, updatedAt),
          source: "folder",
        });
        continue;
      }
      const what = `cannot read the log of ${row.id}`;
      const log = await query<{ seq: string; body: string }>(
        db,
        db.sql.readFromResumePoint,
        [row.id],
        "io",
        what,
      );
      out.push(summaryFromRows(row.id, log.rows, Number(row.log_bytes)));
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1));
  }

  async delete(id: string): Promise<void> {
    this.safe(id);
    const { db } = this;
    const deleted = await query(db, db.sql.delete, [id], "io", `cannot delete session ${id}`);
    if (deleted.rowCount === 0) throw await this.notOpenable(id);
  }

  /** Closes every session this store opened, then ends the pool it made (a host's own pool stays). Safe to call twice. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.open_].map((s) => s.close()));
    if (this.ownsPool && !this.ended) {
      this.ended = true;
      await this.db.pool.end();
    }
  }

  private ended = false;

  private handle(id: SessionId, token: string, fold: ReplayFold, seq: number, logBytes: number) {
    const artifacts = new PostgresArtifactSink(this.db, id);
    const session: PostgresSession = new PostgresSession({
      id,
      db: this.db,
      token,
      fold,
      seq,
      logBytes,
      artifacts,
      onClose: () => this.open_.delete(session),
    });
    this.open_.add(session);
    return session;
  }

  private safe(id: string): void {
    if (!SAFE_ID.test(id))
      throw new StoreError("invalidSessionId", `${JSON.stringify(id)} is not a session id`);
  }

  // Why a session could not be taken: another writer's live lease, or no such session.
  private async notOpenable(id: string): Promise<StoreError> {
    const { db } = this;
    const { rows } = await query<{ lease_owner: string | null; held: boolean | null }>(
      db,
      db.sql.leaseOf,
      [id],
      "io",
      `cannot read session ${id}`,
    );
    const row = rows[0];
    if (row === undefined) return new StoreError("notFound", `no session ${id}`);
    return new StoreError(
      "locked",
      `session ${id} is open by ${row.lease_owner ?? "another writer"}`,
    );
  }
}

interface ListRow {
  readonly id: string;
  readonly updated_at: string;
  readonly meta: (SessionSummary & { updatedAt: number }) | null;
  readonly log_bytes: string;
}

/**
 * Connects, applies the schema migrations the database lacks (once, whichever process
 * starts first) and resolves with the store. Rejects with `StoreError` (`io`) when the
 * database cannot be reached or migrated (a pool the store made is then ended).
 */
export async function createPostgresStore(
  options: PostgresStoreOptions,
): Promise<PostgresSessionStore> {
  const store = new PostgresSessionStore(options);
  try {
    await migrate(store.pool, options.schema ?? "public");
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
