// A response body for `nodeFetch` that is not a web stream (issue 18). The SDKs read a body
// through `Symbol.asyncIterator` when it has one; Node's web streams cost ~10 ms of the
// thread on their first use (the module's load) and ~4 ms more the first time a reader is
// released (Node builds a context for that error's message), all on the first response's
// path. This body is read as a node:http stream, and becomes a web `ReadableStream` only
// when a caller uses that API.
import type { IncomingMessage } from "node:http";
import type { ReadableWritablePair, StreamPipeOptions } from "node:stream/web";

/** The error a fetch rejects or a body fails with once `signal` aborted. */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

type Source = NodeJS.ReadableStream & AsyncIterable<Buffer> & { destroy(error?: Error): void };

/**
 * A response's body as it arrives (decompressed as fetch would), an async iterable of bytes
 * that fails as fetch's body fails: with the signal's reason once aborted, else with
 * `TypeError("terminated")` when the connection breaks. `locked` and `cancel()` answer as a
 * web stream's; `getReader()`, `tee()`, `pipeTo()`, `pipeThrough()` and `values()` turn it
 * into one first (the body can then be read only that way). Read once, by one reader.
 */
export class NodeBody implements AsyncIterable<Uint8Array> {
  readonly #response: IncomingMessage;
  readonly #source: Source;
  readonly #signal: AbortSignal | null | undefined;
  #taken = false;
  #web: ReadableStream<Uint8Array> | undefined;

  constructor(response: IncomingMessage, source: Source, signal: AbortSignal | null | undefined) {
    this.#response = response;
    this.#source = source;
    this.#signal = signal;
  }

  /** Whether a reader holds the body (it is being or was read). */
  get locked(): boolean {
    return this.#web ? this.#web.locked : this.#taken;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    if (this.#web) return this.#web[Symbol.asyncIterator]();
    const chunks = this.#take();
    return {
      next: () => chunks.next(),
      // Also before the first chunk (a generator not started runs no `finally`).
      return: (value?: unknown) => {
        this.#close();
        return chunks.return(value as undefined);
      },
    };
  }

  /** Stops reading: the connection is closed, and what is still in flight dropped. */
  async cancel(): Promise<void> {
    if (this.#web) return this.#web.cancel();
    this.#taken = true;
    this.#close();
  }

  getReader(): ReadableStreamDefaultReader<Uint8Array> {
    return this.#toWeb().getReader();
  }

  tee(): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
    return this.#toWeb().tee();
  }

  pipeTo(destination: WritableStream<Uint8Array>, options?: StreamPipeOptions): Promise<void> {
    return this.#toWeb().pipeTo(destination, options);
  }

  pipeThrough<T>(pair: ReadableWritablePair<T, Uint8Array>, options?: StreamPipeOptions) {
    return this.#toWeb().pipeThrough(pair, options);
  }

  values(options?: { preventCancel?: boolean }): AsyncIterableIterator<Uint8Array> {
    return this.#toWeb().values(options);
  }

  #close(): void {
    this.#response.destroy();
    if (this.#source !== this.#response) this.#source.destroy();
  }

  #take(): AsyncGenerator<Uint8Array> {
    if (this.#taken) throw new TypeError("Body is unusable: Body has already been read");
    this.#taken = true;
    return this.#chunks();
  }

  async *#chunks(): AsyncGenerator<Uint8Array> {
    let ended = false;
    try {
      for await (const chunk of this.#source) {
        yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      }
      if (!this.#response.complete) throw new Error("the connection closed before the body ended");
      ended = true;
    } catch (error) {
      ended = true;
      this.#close();
      throw this.#signal?.aborted
        ? abortReason(this.#signal)
        : new TypeError("terminated", { cause: error });
    } finally {
      // Left before its end (the reader stopped): nothing more is read.
      if (!ended) this.#close();
    }
  }

  /** This body as a web stream (made once; Node's web streams load here). */
  #toWeb(): ReadableStream<Uint8Array> {
    if (this.#web) return this.#web;
    const chunks = this.#take();
    this.#web = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return this.#web;
  }
}
