import type { ModelError, ModelEvent } from "@z-engine/protocol";

/** What to do instead of passing an error on: announce something, wait, then open again. */
export interface Switch {
  /** Emitted in place of the error (a `retrying` or `fallback` event). */
  announce: ModelEvent;
  /** Awaited before the next stream opens; a returned event ends the stream instead (e.g. cancelled). */
  before?: () => Promise<ModelEvent | undefined>;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** Closes an iterator (running its cleanup) without letting a failure escape. */
function close(iterator: AsyncIterator<ModelEvent>): Promise<unknown> {
  try {
    return Promise.resolve(iterator.return?.()).catch(() => undefined);
  } catch {
    return Promise.resolve();
  }
}

/** True for events that put content in the answer (after one, a failure is final). */
export function isContentEvent(event: ModelEvent): boolean {
  return (
    event.type === "textDelta" ||
    event.type === "thinkingDelta" ||
    event.type === "thinkingEnd" ||
    event.type === "redactedThinking" ||
    event.type === "toolCall"
  );
}

/**
 * Relays the events of successive streams. When a stream ends in an error, `onError` (told
 * whether content already arrived) may switch to a new stream from `open`. Written as a plain
 * iterator, not an async generator, so that relaying costs one promise per event: the
 * wrappers sit on the hot path of every streamed delta. After the terminal event the inner
 * stream is closed; `return()` (a consumer that stops) closes it too.
 */
export class RelayStream implements AsyncIterableIterator<ModelEvent> {
  private inner: AsyncIterator<ModelEvent>;
  private content = false;
  private finished = false;
  private pending: Switch | undefined;

  constructor(
    private readonly open: () => AsyncIterable<ModelEvent>,
    private readonly onError: (error: ModelError, content: boolean) => Switch | undefined,
  ) {
    this.inner = open()[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ModelEvent>> {
    if (this.finished) return Promise.resolve(DONE);
    const pending = this.pending;
    if (pending) {
      this.pending = undefined;
      return this.switchTo(pending);
    }
    return this.inner.next().then(this.onNext);
  }

  return(): Promise<IteratorResult<ModelEvent>> {
    this.finished = true;
    return close(this.inner).then(() => DONE);
  }

  private readonly onNext = (result: IteratorResult<ModelEvent>): IteratorResult<ModelEvent> => {
    if (result.done) {
      this.finished = true;
      return result;
    }
    const event = result.value;
    if (event.type === "error") {
      const next = this.onError(event.error, this.content);
      void close(this.inner);
      if (next) {
        this.pending = next;
        return { done: false, value: next.announce };
      }
      this.finished = true;
    } else if (event.type === "stop") {
      this.finished = true;
      void close(this.inner);
    } else if (!this.content && isContentEvent(event)) this.content = true;
    return result;
  };

  private async switchTo(next: Switch): Promise<IteratorResult<ModelEvent>> {
    const end = next.before ? await next.before() : undefined;
    if (end) {
      this.finished = true;
      return { done: false, value: end };
    }
    this.content = false;
    this.inner = this.open()[Symbol.asyncIterator]();
    return this.next();
  }
}
