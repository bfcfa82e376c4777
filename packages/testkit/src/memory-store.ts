import {
  createSessionStore,
  type LogName,
  type LogRecord,
  MemoryArtifactSink,
  type SessionStore,
} from "@z-engine/store";

/** A session store in memory, with a look at what it holds. */
export interface MemoryStore extends SessionStore {
  /** The records stored in a log, in order (copies); empty for an unknown log. */
  records(sessionId: string, agentId?: string): readonly LogRecord[];
}

const keyOf = (name: LogName) =>
  name.agentId === undefined ? name.sessionId : `${name.sessionId}/${name.agentId}`;

/**
 * A `SessionStore` that keeps every session in memory, for tests and ephemeral hosts: built
 * with `createSessionStore` from `@z-engine/store`, so it checks, replays and locks like any
 * store. Records are stored as JSON text (as a real store would), so a record that cannot be
 * serialised is refused and later changes to an appended object are not seen. Lost when the
 * process ends. Passes `runStoreConformance`.
 */
export function createMemoryStore(): MemoryStore {
  const logs = new Map<string, string[]>();
  const artifacts = new Map<string, MemoryArtifactSink>();
  const store = createSessionStore({
    async append(name, records) {
      const lines = records.map((r) => JSON.stringify(r));
      const log = logs.get(keyOf(name)) ?? [];
      logs.set(keyOf(name), log);
      log.push(...lines);
    },
    async read(name) {
      return logs.get(keyOf(name))?.map((line) => JSON.parse(line) as unknown);
    },
    async sessions() {
      return [...logs.keys()].filter((key) => !key.includes("/"));
    },
    async remove(sessionId) {
      for (const key of [...logs.keys()])
        if (key === sessionId || key.startsWith(`${sessionId}/`)) logs.delete(key);
      artifacts.delete(sessionId);
    },
    artifacts(sessionId) {
      const sink = artifacts.get(sessionId) ?? new MemoryArtifactSink();
      artifacts.set(sessionId, sink);
      return sink;
    },
  });
  return {
    ...store,
    records: (sessionId, agentId) =>
      (logs.get(keyOf({ sessionId, ...(agentId ? { agentId } : {}) })) ?? []).map(
        (line) => JSON.parse(line) as LogRecord,
      ),
  };
}
