import type { ModelEvent } from "@z-engine/protocol";
import { CANCELLED, classifyError } from "./errors.js";
import { watchRequestSent } from "./request-sent.js";

/** Turns one provider's stream chunks into protocol events. */
export interface StreamDecoder<Chunk> {
  /** The events one chunk adds (never a terminal one). */
  push(chunk: Chunk): ModelEvent[];
  /** The events that end a stream that ran to its end, the last one terminal. */
  finish(): ModelEvent[];
}

/** Default: a stream that sends nothing for five minutes has stalled. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** How {@link pumpSdkStream} runs one stream. */
export interface PumpOptions {
  /** Aborts the request; the stream then ends with a `cancelled` error. */
  readonly signal?: AbortSignal | undefined;
  /** Default {@link DEFAULT_IDLE_TIMEOUT_MS}; 0 turns the idle timeout off. */
  readonly idleTimeoutMs?: number | undefined;
  /** Loads the SDK (not counted against the idle timeout). */
  readonly prepare?: () => Promise<unknown>;
  /** Called once the request went out (see {@link watchRequestSent}). */
  readonly onSent?: (() => void) | undefined;
  /** The provider's base URL, whose requests `onSent` watches for. */
  readonly baseUrl: string;
}

/**
 * Opens an SDK stream and decodes it into protocol events, ending with exactly one terminal
 * event and never throwing. `onSent` is called once: when the transport reports the request's
 * body written, or else once the stream opened (the response's headers arrived). The request
 * is aborted (its connection closed) when `signal` aborts, when nothing arrives for
 * `idleTimeoutMs` (a `timeout` error), and when the consumer stops iterating.
 */
export async function* pumpSdkStream<Chunk>(
  open: (signal: AbortSignal) => Promise<AsyncIterable<Chunk>>,
  decoder: StreamDecoder<Chunk>,
  options: PumpOptions,
): AsyncGenerator<ModelEvent> {
  const { signal, prepare, onSent } = options;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (signal?.aborted) {
    yield CANCELLED;
    return;
  }
  if (prepare) {
    // Loading the SDK does not count against the idle timeout.
    try {
      await prepare();
    } catch (error) {
      yield { type: "error", error: classifyError(error, signal) };
      return;
    }
    if (signal?.aborted) {
      yield CANCELLED;
      return;
    }
  }
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  const watchdog = idleWatchdog(idleTimeoutMs, controller);
  const failure = (error: unknown): ModelEvent => ({
    type: "error",
    error: watchdog.idle
      ? { kind: "timeout", message: `the provider sent nothing for ${idleTimeoutMs} ms` }
      : classifyError(error, signal),
  });
  let ending: ModelEvent[] | undefined;
  const watch = onSent ? watchRequestSent(options.baseUrl, onSent) : undefined;
  try {
    let stream: AsyncIterable<Chunk> | undefined;
    try {
      stream = await open(controller.signal);
      watch?.sent();
    } catch (error) {
      ending = [failure(error)];
    }
    if (stream) {
      try {
        for await (const chunk of stream) {
          watchdog.touch();
          const events = decoder.push(chunk);
          for (const event of events) yield event;
        }
      } catch (error) {
        ending = [failure(error)];
      }
    }
    // The SDKs end an aborted stream quietly, so the reason is checked here.
    ending ??= signal?.aborted
      ? [CANCELLED]
      : watchdog.idle
        ? [failure(undefined)]
        : decoder.finish();
  } finally {
    watch?.stop();
    watchdog.stop();
    signal?.removeEventListener("abort", onAbort);
    controller.abort();
  }
  // The connection is closed and the timer cleared before the terminal event goes out, so a
  // consumer that stops at the terminal event leaves nothing running.
  for (const event of ending) yield event;
}

/** Aborts `controller` once nothing arrived for `timeoutMs` (never when it is 0). */
function idleWatchdog(
  timeoutMs: number,
  controller: AbortController,
): { readonly idle: boolean; touch(): void; stop(): void } {
  let idle = false;
  let active = false;
  let quiet = 0;
  // Refreshing a timer per chunk costs more than the chunk: a chunk only sets a flag, and a
  // check every quarter of the timeout counts quiet quarters (idle after 4, i.e. within 1.25x).
  const check = () => {
    if (active) quiet = 0;
    else quiet++;
    active = false;
    if (quiet >= 4) {
      idle = true;
      controller.abort();
    } else timer?.refresh();
  };
  const timer = timeoutMs > 0 ? setTimeout(check, Math.max(1, timeoutMs / 4)) : undefined;
  return {
    get idle() {
      return idle;
    },
    touch: () => {
      active = true;
    },
    stop: () => clearTimeout(timer),
  };
}
