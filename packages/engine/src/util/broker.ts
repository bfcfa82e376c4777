import { deferred, type Deferred } from "./deferred.js";

/**
 * Pending requests that wait on the user (approvals, questions, plan reviews), keyed by id.
 * The session actor resolves them from commands while the turn that asked keeps waiting,
 * so steering, mode changes and cancel stay responsive.
 */
export class Broker<Request, Answer> {
  private readonly entries = new Map<string, { request: Request; wait: Deferred<Answer> }>();

  /** Registers a pending request; resolves with its answer. Aborting resolves with `onAbort()`. */
  wait(id: string, request: Request, signal: AbortSignal, onAbort: () => Answer): Promise<Answer> {
    const wait = deferred<Answer>();
    this.entries.set(id, { request, wait });
    const abort = () => this.resolve(id, onAbort());
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    return wait.promise.finally(() => signal.removeEventListener("abort", abort));
  }

  /** Answers a pending request. Returns false when no request has that id (already answered). */
  resolve(id: string, answer: Answer): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    entry.wait.resolve(answer);
    return true;
  }

  /** The request behind a pending id. */
  get(id: string): Request | undefined {
    return this.entries.get(id)?.request;
  }

  /** Pending requests in the order they were made. */
  pending(): Array<[string, Request]> {
    return [...this.entries].map(([id, e]) => [id, e.request]);
  }
}
