/** A node of the cancellation tree (session > turn > agent run > tool call). */
export interface LinkedController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  /** Detaches from the parent once this node is done, so long-lived parents hold no listeners. */
  release(): void;
}

/**
 * A child of `parent`: aborting the parent aborts the child with the same reason; aborting
 * the child leaves the parent alone.
 */
export function linkedController(parent: AbortSignal): LinkedController {
  const child = new AbortController();
  const forward = () => child.abort(parent.reason);
  if (parent.aborted) child.abort(parent.reason);
  else parent.addEventListener("abort", forward, { once: true });
  return {
    signal: child.signal,
    abort: (reason) => child.abort(reason),
    release: () => parent.removeEventListener("abort", forward),
  };
}

/**
 * How the user stopped a turn (design.md §3: interrupt keeps queued steering, cancel drops
 * it), or one subagent (`agent`: the host's `stopAgent`; its parent's turn goes on).
 */
export type UserStopKind = "cancel" | "interrupt" | "agent";

/** The abort reason of a cancel or interrupt. */
export class UserStop extends Error {
  readonly code = "userStop";
  constructor(readonly kind: UserStopKind) {
    super(
      kind === "cancel"
        ? "cancelled by user"
        : kind === "interrupt"
          ? "interrupted by user"
          : "stopped by the user",
    );
  }
}

/** The abort reason when the engine shuts down. */
export class EngineShutdown extends Error {
  readonly code = "engineShutdown";
  constructor() {
    super("the engine shut down");
  }
}
