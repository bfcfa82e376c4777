import { FIRST_ROUND_WAIT_MS } from "./map-status.js";

/**
 * When a session's first repo map build starts: at once, at the first request that goes out
 * (the build runs while the model answers it), or after the first round (the model works on
 * its results meanwhile), each with a timer for a session whose requests never come.
 */
export class StartGate {
  private release: (() => void) | null = null;
  private timer: NodeJS.Timeout | undefined;
  /** Start at the next request that goes out. */
  private onRequest = false;
  /** The first response arrived: start at the next request. */
  private afterResponse = false;
  private roundMs = FIRST_ROUND_WAIT_MS;
  private markStarted: () => void = () => {};
  /** Resolves once the held start happened (or was cancelled). */
  readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(private readonly startBuild: () => void) {}

  /** Whether a start is held. */
  get holding(): boolean {
    return this.release !== null;
  }

  /** Starts now (and ends any hold). */
  now(): void {
    clearTimeout(this.timer);
    this.release = null;
    this.startBuild();
    this.markStarted();
  }

  /** Holds the start until a request goes out, or `fallbackMs` (a session that sits idle). */
  untilRequest(fallbackMs: number): void {
    this.hold(fallbackMs);
    this.onRequest = true;
  }

  /**
   * Holds the start until the request after the first model response went out (the model works
   * on the first round's results meanwhile), or `roundMs` after that response when no request
   * follows (a long first tool call, a first turn without tools), or `fallbackMs` after now
   * when no response comes at all.
   */
  untilAfterFirstResponse(fallbackMs: number, roundMs = FIRST_ROUND_WAIT_MS): void {
    this.roundMs = roundMs;
    this.hold(fallbackMs);
  }

  private hold(ms: number): void {
    this.arm(ms);
    this.release = () => this.now();
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release?.(), ms);
    this.timer.unref();
  }

  /** The session's first model response arrived (idempotent). */
  firstResponse(): void {
    if (!this.release || this.afterResponse || this.onRequest) return;
    this.afterResponse = true;
    this.arm(this.roundMs);
  }

  /** A model request went out. */
  requestSent(): void {
    if (this.onRequest || this.afterResponse) this.release?.();
  }

  /** Nothing starts any more (the session closes); a held start counts as started. */
  cancel(): void {
    clearTimeout(this.timer);
    this.release = null;
    this.markStarted();
  }
}
