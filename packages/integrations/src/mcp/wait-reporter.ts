import type { McpCallOptions } from "./types.js";

/** The clock of one call's silence: `heard` restarts it, `stop` ends it. */
export interface WaitReporter {
  heard(): void;
  stop(): void;
}

/**
 * Tells `options.onWaiting` every `everyMs` that a call has heard nothing from its server
 * (a progress notification restarts the count, as it restarts the call's timeout), with the
 * silence so far and the limit after which the call gives up. The timer never keeps the
 * process alive. A call without `onWaiting` gets a reporter that does nothing.
 */
export function waitReporter(
  options: McpCallOptions,
  limitMs: number,
  everyMs: number,
): WaitReporter {
  const onWaiting = options.onWaiting;
  if (!onWaiting || everyMs <= 0) return { heard: () => {}, stop: () => {} };
  let silent = 0;
  const timer = setInterval(() => {
    silent += everyMs;
    if (silent < limitMs) onWaiting(silent, limitMs);
  }, everyMs);
  timer.unref();
  return {
    heard: () => {
      silent = 0;
    },
    stop: () => clearInterval(timer),
  };
}
