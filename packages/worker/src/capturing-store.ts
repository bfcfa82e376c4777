import type { OpenedSession, Replay, SessionStore } from "@z-engine/store";

/**
 * A store that hands every open through to `inner` and keeps the replay each open found
 * (before the engine repairs a crash), so the worker can tell what a job's earlier worker
 * already ran. `take(id)` returns it once.
 */
export function capturingStore(
  inner: SessionStore,
): SessionStore & { take(id: string): Replay | undefined } {
  const replays = new Map<string, Replay>();
  return {
    create: (options) => inner.create(options),
    list: () => inner.list(),
    delete: (id) => inner.delete(id),
    async open(id: string): Promise<OpenedSession> {
      const opened = await inner.open(id);
      replays.set(id, opened.replay);
      return opened;
    },
    take(id) {
      const replay = replays.get(id);
      replays.delete(id);
      return replay;
    },
  };
}
