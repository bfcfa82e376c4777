// A queue of messages between the engine's callbacks and the generator a host iterates.

/** Pushes go in order; `end` (with an optional error) finishes the reader after the queue drains. */
export class Channel<T> {
  private readonly queue: T[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  private failure: unknown;

  push(item: T): void {
    if (this.ended) return;
    this.queue.push(item);
    this.wake();
  }

  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = error;
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = undefined;
    w?.();
  }

  /** The items in order until the end; throws the end's error after the last item. */
  async *read(): AsyncGenerator<T, void> {
    for (;;) {
      const item = this.queue.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.ended) {
        if (this.failure !== undefined) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
      });
    }
  }
}
