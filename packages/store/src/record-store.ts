import { newSessionId, type SessionId } from "@z-engine/protocol";
import { StoreError } from "./errors.js";
import { type LogDamage, LineFolder, type UnknownRecord } from "./log-reader.js";
import { MemoryArtifactSink } from "./memory-artifacts.js";
import { metaFromReplay } from "./meta.js";
import type { LogRecord } from "./records.js";
import { RecordSession } from "./record-session.js";
import { ReplayFold } from "./replay.js";
import { sessionStartRecords } from "./session-start-records.js";
import type {
  CreateSessionOptions,
  OpenedSession,
  SessionStore,
  SessionSummary,
  StoreNotice,
} from "./session-store.js";
import type { ArtifactSink } from "@z-engine/protocol";

/** Which log: a session's own, or one of its subagents'. */
export interface LogName {
  readonly sessionId: string;
  /** Set for a subagent's transcript. */
  readonly agentId?: string;
}

/**
 * The smallest thing a host writes to keep sessions somewhere of its own (files in its
 * folder, a database row per log, a remote service): append text to a log and read it back.
 * `createSessionStore` adds the rest of `SessionStore`: serialising and checking records,
 * parsing with damage reports, replay, the working set, one writer per session in this
 * process, the chat list.
 */
export interface RecordBackend {
  /**
   * Stores `text` (whole JSON lines, each ending in a newline) at the end of the log `name`,
   * creating it. Resolve once stored as durably as the backend promises; reject when it is
   * not. Calls for one log never overlap: the next waits for this one.
   */
  append(name: LogName, text: string): Promise<void>;
  /** The log's whole text, or `undefined` when there is no such log. */
  read(name: LogName): Promise<string | undefined>;
  /** The ids of every session that has a log (subagent logs are not sessions). */
  sessions(): Promise<readonly string[]>;
  /** Removes a session's logs (its subagents' included) and artifacts. */
  remove(sessionId: string): Promise<void>;
  /** Where a session's artifacts go (default: in memory, lost when the process ends). */
  artifacts?(sessionId: string): ArtifactSink;
}

const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** A log's text parsed: intact records, damaged lines, unknown kinds, a torn last line. */
export interface ParsedLog {
  readonly records: LogRecord[];
  readonly damage: LogDamage[];
  readonly unknown: UnknownRecord[];
  /** Bytes after the last newline: a record whose append never finished. */
  readonly tornBytes: number;
}

/** Parses a log's text as the file reader does (see `readLog`). Never throws. */
export function parseLog(text: string): ParsedLog {
  const folder = new LineFolder();
  const end = text.lastIndexOf("\n") + 1;
  folder.fold(text.slice(0, end));
  const { records, damage, unknown } = folder;
  return { records, damage, unknown, tornBytes: Buffer.byteLength(text.slice(end)) };
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
  const handle = (id: SessionId, fold: ReplayFold, torn = false) => {
    open.add(id);
    const artifacts = backend.artifacts?.(id) ?? new MemoryArtifactSink();
    const release = () => open.delete(id);
    return new RecordSession({ id, backend, fold, artifacts, read, release, torn });
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
      const text = await read({ sessionId: id });
      if (text === undefined) throw new StoreError("notFound", `no session ${id}`);
      const { records, damage, unknown, tornBytes } = parseLog(text);
      const fold = new ReplayFold();
      for (const record of records) fold.apply(record);
      if (open.has(id)) throw new StoreError("locked", `session ${id} is already open`);
      const session = handle(id as SessionId, fold, tornBytes > 0);
      const notices: StoreNotice[] =
        tornBytes === 0
          ? []
          : [
              {
                level: "warning",
                code: "log.tornTail",
                message: `the log's last line was half-written (a crash); it was skipped (${tornBytes} bytes)`,
              },
            ];
      return { session, replay: fold.snapshot(), report: { damage, unknown, notices } };
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
        const text = await read({ sessionId: id });
        if (text === undefined) continue;
        const fold = new ReplayFold();
        for (const record of parseLog(text).records) fold.apply(record);
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
