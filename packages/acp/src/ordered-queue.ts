/**
 * Items handled one at a time in arrival order by an async handler (each session's updates
 * go to the client in the order the engine emitted them, each notification written before the
 * next). Items pushed before `start` wait for it. A handler that rejects is reported through
 * `onError` and the queue goes on.
 */
export class OrderedQueue<T> {
  private readonly items: T[] = [];
  private running = false;
  private started = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly handle: (item: T) => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Queues an item (from a synchronous event listener). Never throws. */
  push(item: T): void {
    this.items.push(item);
    this.drain();
  }

  /** Starts handling: items queued so far, then each as it comes. */
  start(): void {
    this.started = true;
    this.drain();
  }

  /** Resolves once every item queued before the call has been handled (at once when idle). */
  flush(): Promise<void> {
    if (!this.running && (this.items.length === 0 || !this.started)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private drain(): void {
    if (this.running || !this.started) return;
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    while (this.items.length > 0) {
      const item = this.items.shift() as T;
      try {
        await this.handle(item);
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = false;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}
