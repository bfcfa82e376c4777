/**
 * What the MCP hub runs in the background: the hold on server starts (so the first request
 * never waits for them) and the starts and stops in flight.
 */

/** A gate server starts wait on: open unless held, and held at most a fallback time. */
export class StartGate {
  private gate: Promise<void> = Promise.resolve();
  private releaseNow: () => void = () => {};

  /** Resolves once starts may begin. */
  get opened(): Promise<void> {
    return this.gate;
  }

  /** Holds starts until {@link release} or `fallbackMs` passed (the timer keeps no process alive). */
  hold(fallbackMs: number): void {
    let release = () => {};
    this.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const timer = setTimeout(() => this.release(), fallbackMs);
    timer.unref();
    this.releaseNow = () => {
      clearTimeout(timer);
      release();
    };
  }

  /** Lets held starts begin (idempotent). */
  release(): void {
    this.releaseNow();
    this.releaseNow = () => {};
  }
}

/** Background tasks whose failures are ignored, and a wait for all of them. */
export class BackgroundTasks {
  private readonly tasks = new Set<Promise<unknown>>();

  /** Runs `task` in the background (nothing when undefined). */
  track(task: Promise<unknown> | undefined): void {
    if (!task) return;
    const quiet = task.catch(() => {});
    this.tasks.add(quiet);
    void quiet.finally(() => this.tasks.delete(quiet));
  }

  /** Resolves once every task tracked so far, and every one they began, has finished. */
  async settled(): Promise<void> {
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
  }
}
