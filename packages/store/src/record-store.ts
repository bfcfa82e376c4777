import { newSessionId, type SessionId } from "@z-engine/protocol";
import { StoreError } from "./errors.js";
import type { LogDamage, UnknownRecord } from "./log-reader.js";
import { MemoryArtifactSink } from "./memory-artifacts.js";
import { metaFromReplay } from "./meta.js";
import { checkRecord } from "./record-check.js";
import type { LogRecord } from "./records.js";
import { RecordSession } from "./record-session.js";
import { ReplayFold } from "./replay.js";
import { sessionStartRecords } from "./session-start-records.js";
import type {
  CreateSessionOptions,
  OpenedSession,
  SessionStore,
  SessionSummary,
} from "./session-store.js";
import type { ArtifactSink } from "@z-engine/protocol";

/** Which log: a session's own, or one of its subagents'. */
export interface LogName {
  readonly sessionId: string;
  /** Set for a subagent's transcript. */
  readonly agentId?: string;
}

/**
 * The smallest thing a host writes to keep sessions somewhere of its own (a database, a
 * remote service, JSON-lines files in its folder): append records to a log and read them
 * back. `createSessionStore` adds the rest of `SessionStore` (checks, replay, the working
 * set, locking within the process, the chat list).
 */
export interface RecordBackend {
  /**
   * Stores `records` at the end of the log `name` (creating it), in order. Resolve once they
   * are stored as durably as the backend promises; reject when they are not (then none of
   * them may be stored). Calls for one log never overlap: the next waits for this one.
   */
  append(name: LogName, records: readonly LogRecord[]): Promise<void>;
  /**
   * Every value stored in the log `name`, in order (parsed, not yet checked: the store checks
   * each), or `undefined` when there is no such log.
   */
  read(name: LogName): Promise<readonly unknown[] | undefined>;
  /** The ids of every session that has a log. */
  sessions(): Promise<readonly string[]>;
  /** Removes a session's logs (its subagents' included) and artifacts. */
  remove(sessionId: string): Promise<void>;
  /** Where a session's artifacts go (default: in memory, lost when the process ends). */
  artifacts?(sessionId: string): ArtifactSink;
}

const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** Checks what a backend read: the intact records, damaged values and unknown kinds. */
export function checkValues(values: readonly unknown[]): {
  records: LogRecord[];
  damage: LogDamage[];
  unknown: UnknownRecord[];
} {
  const records: LogRecord[] = [];
  const damage: LogDamage[] = [];
  const unknown: UnknownRecord[] = [];
  values.forEach((value, i) => {
    const check = checkRecord(value);
    if (check.status === "ok") records.push(check.record);
    else if (check.status === "unknown") unknown.push({ line: i + 1, kind: check.kind });
    else damage.push({ line: i + 1, reason: check.reason, excerpt: excerpt(value) });
  });
  return { records, damage, unknown };
}

function excerpt(value: unknown): string {
  try {
    return String(JSON.stringify(value)).slice(0, 120);
  } catch {
    return String(value).slice(0, 120);
  }
}

/**
 * A `SessionStore` over a `RecordBackend`. A session can be open once at a time in this
 * process (a second `open` rejects with `locked`); the backend is trusted to be the only
 * writer. `list` replays every session (fine for hundreds; a large store keeps its own
 * summaries and implements `SessionStore` itself). Damaged or unknown values the backend
 * returns are reported by `open` and skipped. Rejects with `StoreError` as `SessionStore`
 * says; a backend's own failure is `io` (or `appendFailed` for an append), with the cause.
 */
export function createSessionStore(backend: RecordBackend): SessionStore {
  const open = new Set<string>();
  const read = async (name: LogName) => {
    try {
      return await backend.read(name);
    } catch (error) {
      throw new StoreError("io", `cannot read the log of ${name.sessionId}`, { cause: error });
    }
  };
  const handle = (id: SessionId, fold: ReplayFold) => {
    open.add(id);
    const artifacts = backend.artifacts?.(id) ?? new MemoryArtifactSink();
    return new RecordSession({
      id,
      backend,
      fold,
      artifacts,
      read,
      release: () => open.delete(id),
    });
  };
  const safe = (id: string) => {
    if (!SAFE_ID.test(id))
      throw new StoreError("invalidSessionId", `${JSON.stringify(id)} is not a session id`);
  };
  return {
    async create(options: CreateSessionOptions) {
      const session = handle(newSessionId(), new ReplayFold());
      try {
        await session.appendAll(sessionStartRecords(session.id, options));
      } catch (error) {
        await session.close();
        throw error;
      }
      return session;
    },
    async open(id: string): Promise<OpenedSession> {
      safe(id);
      if (open.has(id)) throw new StoreError("locked", `session ${id} is already open`);
      const values = await read({ sessionId: id });
      if (values === undefined) throw new StoreError("notFound", `no session ${id}`);
      const { records, damage, unknown } = checkValues(values);
      const fold = new ReplayFold();
      for (const record of records) fold.apply(record);
      if (open.has(id)) throw new StoreError("locked", `session ${id} is already open`);
      const session = handle(id as SessionId, fold);
      return { session, replay: fold.snapshot(), report: { damage, unknown, notices: [] } };
    },
    async list(): Promise<SessionSummary[]> {
      let ids: readonly string[];
      try {
        ids = await backend.sessions();
      } catch (error) {
        throw new StoreError("io", "cannot list the sessions", { cause: error });
      }
      const out: SessionSummary[] = [];
      for (const id of ids) {
        const values = await read({ sessionId: id });
        if (values === undefined) continue;
        const fold = new ReplayFold();
        for (const record of checkValues(values).records) fold.apply(record);
        out.push({ ...metaFromReplay(id, fold.snapshot(), 0, 0), source: "folder" });
      }
      return out.sort((a, b) => b.updatedAt - a.updatedAt);
    },
    async delete(id: string) {
      safe(id);
      if (open.has(id)) throw new StoreError("locked", `session ${id} is open`);
      if ((await read({ sessionId: id })) === undefined)
        throw new StoreError("notFound", `no session ${id}`);
      try {
        await backend.remove(id);
      } catch (error) {
        throw new StoreError("io", `cannot delete session ${id}`, { cause: error });
      }
    },
  };
}
