import type {
  ModelClient,
  ModelError,
  ModelEvent,
  ModelRequest,
  StreamOptions,
} from "@z-engine/protocol";
import { CANCELLED, isRetryable } from "./errors.js";
import { RelayStream, type Switch } from "./relay.js";

/** Waits `ms`; resolves early when `signal` aborts. Never rejects. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The retry schedule. */
export interface RetryOptions {
  /** Attempts in total, the first included (default 5). */
  maxAttempts?: number;
  /** The first wait (default 500 ms); each later one doubles. */
  baseDelayMs?: number;
  /** The longest doubled wait (default 16 s). */
  maxDelayMs?: number;
  /** The longest wait a provider's retry-after may ask for (default 60 s). */
  maxRetryAfterMs?: number;
  /** Injected for tests; default a real, abortable, unref'd timer. */
  sleep?: Sleep;
}

/** A real sleep: an unref'd timer, cut short by `signal`. */
export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** The wait before the attempt after `failedAttempt` (1-based). */
export function retryDelayMs(
  failedAttempt: number,
  error: ModelError,
  options: RetryOptions = {},
): number {
  if (error.retryAfterMs !== undefined)
    return Math.min(error.retryAfterMs, options.maxRetryAfterMs ?? 60_000);
  const base = options.baseDelayMs ?? 500;
  return Math.min(base * 2 ** (failedAttempt - 1), options.maxDelayMs ?? 16_000);
}

/**
 * Wraps a client so that temporary failures (rate limit, overload, server error, timeout,
 * lost connection) are retried: up to `maxAttempts` in total, waiting 0.5 s, 1 s, 2 s, 4 s
 * (doubling up to 16 s) or the provider's retry-after (at most 60 s). Each wait is announced
 * by a `retrying` event (with the failed attempt's number) before it starts. Once the answer
 * has content (text, thinking or a tool call) a failure is final. Aborting during a wait ends
 * the stream with `cancelled`. Never throws.
 */
export function withRetry(client: ModelClient, options: RetryOptions = {}): ModelClient {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const sleep = options.sleep ?? realSleep;
  return {
    stream(request: ModelRequest, streamOptions: StreamOptions = {}): AsyncIterable<ModelEvent> {
      const signal = streamOptions.signal;
      let attempt = 1;
      return new RelayStream(
        () => client.stream(request, streamOptions),
        (error, content): Switch | undefined => {
          if (content || attempt >= maxAttempts || !isRetryable(error.kind)) return undefined;
          const delayMs = retryDelayMs(attempt, error, options);
          const announce: ModelEvent = { type: "retrying", attempt, maxAttempts, delayMs, error };
          attempt++;
          return {
            announce,
            before: async () => {
              await sleep(delayMs, signal);
              return signal?.aborted ? CANCELLED : undefined;
            },
          };
        },
      );
    },
  };
}
