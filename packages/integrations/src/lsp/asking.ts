import type { LspClient } from "./client.js";
import type { Quoter } from "./format.js";

/**
 * Longest wait for a busy server (loading the project or indexing) once it gave an empty
 * answer, before that answer is taken.
 */
export const BUSY_WAIT_MS = 20_000;

/** An answer that says nothing: null, or an empty list. */
export function isEmptyResult(result: unknown): boolean {
  return result === null || result === undefined || (Array.isArray(result) && result.length === 0);
}

/**
 * Asks a server for one query's answers: each result has its files' lines loaded into the
 * quoter (through its door) first, and an empty result from a busy server is asked again
 * once the server is idle (rust-analyzer answers nothing until it has loaded the crate
 * graph). `stillBusy` tells that the server stayed busy past {@link BUSY_WAIT_MS}.
 */
export class Asker {
  /** An empty answer was taken while the server was still busy. */
  stillBusy = false;

  constructor(
    readonly client: LspClient,
    private readonly q: Quoter,
    private readonly busyWaitMs = BUSY_WAIT_MS,
  ) {}

  /** The result of `method`; rejects as {@link LspClient.request} does. */
  async request<R>(method: string, params: unknown, signal: AbortSignal): Promise<R> {
    let result = await this.client.request<R>(method, params, signal);
    if (isEmptyResult(result) && (await this.waitIfBusy(signal)))
      result = await this.client.request<R>(method, params, signal);
    await this.q.load(result);
    return result;
  }

  /**
   * When the server is busy, waits until it is idle: true when it became idle (ask again),
   * false when it was not busy or stayed busy (then `stillBusy` is set). Never rejects.
   */
  async waitIfBusy(signal: AbortSignal): Promise<boolean> {
    if (!this.client.busy) return false;
    const idle = await this.client.whenIdle(this.busyWaitMs, signal);
    if (!idle) this.stillBusy = true;
    return idle;
  }

  /** The note an answer gets when the server stayed busy, or "". */
  note(): string {
    return this.stillBusy
      ? `\n(${this.client.spec.name} is still loading or indexing the project: this answer may be incomplete; ask again shortly.)`
      : "";
  }
}
