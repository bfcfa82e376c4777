import { EXIT } from "./exit-codes.js";

/** Whether a cancelling signal arrived, and how to stop listening. */
export interface SignalWatch {
  readonly received: boolean;
  dispose(): void;
}

/**
 * Calls `cancel` on the first SIGINT or SIGTERM (the run then ends cleanly); a second one
 * exits at once with 130, for a turn that does not stop.
 */
export function watchSignals(cancel: () => void): SignalWatch {
  let count = 0;
  const listener = () => {
    count++;
    if (count > 1) process.exit(EXIT.cancelled);
    cancel();
  };
  process.on("SIGINT", listener);
  process.on("SIGTERM", listener);
  return {
    get received() {
      return count > 0;
    },
    dispose: () => {
      process.off("SIGINT", listener);
      process.off("SIGTERM", listener);
    },
  };
}
