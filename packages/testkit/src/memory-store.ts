import {
  createSessionStore,
  type LogName,
  type LogRecord,
  MemoryArtifactSink,
  parseLog,
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
 * store. Logs are kept as JSON-lines text (as a file would be), so later changes to an
 * appended object are not seen. Lost when the process ends. Passes `runStoreConformance`.
 */
export function createMemoryStore(): MemoryStore {
  const logs = new Map<string, string>();
  const artifacts = new Map<string, MemoryArtifactSink>();
  const store = createSessionStore({
    async append(name, text) {
      logs.set(keyOf(name), (logs.get(keyOf(name)) ?? "") + text);
    },
    async read(name) {
      return logs.get(keyOf(name));
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
      parseLog(logs.get(keyOf({ sessionId, ...(agentId ? { agentId } : {}) })) ?? "").records,
  };
}
