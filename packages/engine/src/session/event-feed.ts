import type { EventEnvelope } from "@z-engine/protocol";

/**
 * The events of one session, fanned out to its listeners: the `onEvent` a host gave
 * `createSession` and each `events()` iterator. A listener that throws is ignored.
 */
export class EventFeed {
  private readonly listeners = new Set<(envelope: EventEnvelope) => void>();
  private readonly closers = new Set<() => void>();
  private closed = false;

  /** Delivers an envelope to every listener. */
  publish(envelope: EventEnvelope): void {
    for (const listener of this.listeners) {
      try {
        listener(envelope);
      } catch {
        // A host's listener must not break the session.
      }
    }
  }

  /** Adds a listener; returns its removal. */
  listen(listener: (envelope: EventEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Ends every iterator (the session closed); later iterators end at once. */
  close(): void {
    this.closed = true;
    for (const close of this.closers) close();
    this.closers.clear();
  }

  /**
   * The events published from now on, in order, until the session closes. Events wait in
   * the iterator's own queue while the consumer is busy; leaving the loop unsubscribes.
   */
  async *events(): AsyncGenerator<EventEnvelope, void, undefined> {
    if (this.closed) return;
    const queue: EventEnvelope[] = [];
    let wake: (() => void) | undefined;
    let ended = false;
    const stop = this.listen((envelope) => {
      queue.push(envelope);
      wake?.();
    });
    const end = () => {
      ended = true;
      wake?.();
    };
    this.closers.add(end);
    try {
      for (;;) {
        const next = queue.shift();
        if (next) {
          yield next;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      stop();
      this.closers.delete(end);
    }
  }
}
