/**
 * Serialises calls on one path: shared by every agent of a session, so two edits of one
 * file run one after the other, never interleaved. Paths should be real absolute paths.
 */
export interface PathLocks {
  /**
   * Runs `fn` once it holds every path in `paths` (taken in sorted order, so two callers
   * never deadlock), then releases them, whether `fn` resolves or rejects. Resolves or
   * rejects as `fn` does. Waiters run in arrival order.
   */
  withLock<T>(paths: readonly string[], fn: () => Promise<T>): Promise<T>;
}

/** A new, empty {@link PathLocks}. */
export function createPathLocks(): PathLocks {
  const tails = new Map<string, Promise<void>>();

  async function acquire(path: string): Promise<() => void> {
    const previous = tails.get(path) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    tails.set(path, tail);
    await previous;
    return () => {
      release();
      if (tails.get(path) === tail) tails.delete(path);
    };
  }

  return {
    async withLock(paths, fn) {
      const unique = [...new Set(paths)].sort();
      const releases: (() => void)[] = [];
      try {
        for (const path of unique) releases.push(await acquire(path));
        return await fn();
      } finally {
        for (const release of releases.reverse()) release();
      }
    },
  };
}
