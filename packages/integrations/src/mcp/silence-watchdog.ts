import { McpError } from "./types.js";

/** The clock of one call's silence. */
export interface SilenceWatchdog {
  /** Aborts the call once the server has been silent for the whole limit. */
  readonly signal: AbortSignal;
  /** True once the limit passed (the call's failure is then a timeout, not a cancel). */
  readonly expired: boolean;
  /** The server said something (a progress notification): the count starts again. */
  heard(): void;
  stop(): void;
  /** The failure for an expired call. */
  error(what: string): McpError;
}

/** What the watchdog is told to do. */
export interface WatchdogOptions {
  readonly limitMs: number;
  /** How often `onWaiting` is told of the silence so far. */
  readonly everyMs: number;
  readonly onWaiting?: (silentMs: number, limitMs: number) => void;
  /** While true, the silence is ours (the user answers a server's question): nothing counts. */
  readonly paused: () => boolean;
}

/**
 * Watches one call: every `everyMs` of silence it tells `onWaiting`, and once the server was
 * silent for `limitMs` it aborts `signal` (the SDK then sends `notifications/cancelled`). A
 * progress notification restarts the count; time spent while `paused` (an elicitation the
 * user is answering) is not the server's silence. The timer never keeps the process alive.
 */
export function silenceWatchdog(options: WatchdogOptions): SilenceWatchdog {
  const controller = new AbortController();
  let silent = 0;
  let expired = false;
  const tick = Math.max(10, Math.min(options.everyMs, options.limitMs));
  const timer = setInterval(() => {
    if (options.paused()) {
      silent = 0;
      return;
    }
    silent += tick;
    if (silent >= options.limitMs) {
      expired = true;
      clearInterval(timer);
      controller.abort();
    } else if (silent % options.everyMs < tick) options.onWaiting?.(silent, options.limitMs);
  }, tick);
  timer.unref();
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    heard: () => {
      silent = 0;
    },
    stop: () => clearInterval(timer),
    error: (what) =>
      new McpError(
        "timeout",
        `${what} timed out: the server sent nothing for ${Math.round(options.limitMs / 1000)} s`,
      ),
  };
}
