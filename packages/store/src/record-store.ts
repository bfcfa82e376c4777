import { newSessionId, type SessionId } from "@z-engine/protocol";
import { StoreError } from "./errors.js";
import { type LogName, parseLog, type RecordBackend } from "./record-backend.js";
import { MemoryArtifactSink } from "./memory-artifacts.js";
import { metaFromReplay } from "./meta.js";
import { RecordSession } from "./record-session.js";
import type { LogRecord } from "./records.js";
import { ReplayFold } from "./replay.js";
import { sessionStartRecords } from "./session-start-records.js";
import type {
  CreateSessionOptions,
  OpenedSession,
  SessionStore,
  SessionSummary,
  StoreNotice,
} from "./session-store.js";

const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

async function readLog(backend: RecordBackend, name: LogName): Promise<string | undefined> {
  try {
    return await backend.read(name);
  } catch (error) {
    throw new StoreError("io", `cannot read the log of ${name.sessionId}`, { cause: error });
  }
}

function assertSafeId(id: string): void {
  if (!SAFE_ID.test(id))
    throw new StoreError("invalidSessionId", `${JSON.stringify(id)} is not a session id`);
}

/** The replay of a log's records, in order. */
function foldOf(records: Iterable<LogRecord>): ReplayFold {
  const fold = new ReplayFold();
  for (const record of records) fold.apply(record);
  return fold;
}

/** The warning for a half-written last line (none when the log ended whole). */
function tornTailNotices(tornBytes: number): StoreNotice[] {
  if (tornBytes === 0) return [];
  return [
    {
      level: "warning",
      code: "log.tornTail",
      message: `the log's last line was half-written (a crash); it was skipped (${tornBytes} bytes)`,
    },
  ];
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
  const read = (name: LogName) => readLog(backend, name);
  const handle = (id: SessionId, fold: ReplayFold, torn = false) => {
    open.add(id);
    const artifacts = backend.artifacts?.(id) ?? new MemoryArtifactSink();
    const release = () => open.delete(id);
    return new RecordSession({ id, backend, fold, artifacts, read, release, torn });
  };
  return {
    async create(options: CreateSessionOptions) {
      if (options.id !== undefined) {
        assertSafeId(options.id);
        if (open.has(options.id) || ((await read({ sessionId: options.id })) ?? "").trim() !== "")
          throw new StoreError("exists", `a session ${options.id} already exists`);
      }
      const session = handle((options.id ?? newSessionId()) as SessionId, new ReplayFold());
      try {
        await session.appendAll(sessionStartRecords(session.id, options));
      } catch (error) {
        await session.close();
        throw error;
      }
      return session;
    },
    async open(id: string): Promise<OpenedSession> {
      assertSafeId(id);
      if (open.has(id)) throw new StoreError("locked", `session ${id} is already open`);
      const text = await read({ sessionId: id });
      if (text === undefined) throw new StoreError("notFound", `no session ${id}`);
      const { records, damage, unknown, tornBytes } = parseLog(text);
      const fold = foldOf(records);
      if (open.has(id)) throw new StoreError("locked", `session ${id} is already open`);
      const session = handle(id as SessionId, fold, tornBytes > 0);
      const notices = tornTailNotices(tornBytes);
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
        const fold = foldOf(parseLog(text).records);
        out.push({ ...metaFromReplay(id, fold.snapshot(), 0, 0), source: "folder" });
      }
      return out.sort((a, b) => b.updatedAt - a.updatedAt);
    },
    async delete(id: string) {
      assertSafeId(id);
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
