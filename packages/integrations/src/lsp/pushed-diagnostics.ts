import type { Diagnostic } from "vscode-languageserver-protocol/node";

/** What a server last pushed for a document. */
export interface Pushed {
  /** Pushes so far. */
  readonly count: number;
  readonly items: Diagnostic[];
  /** The document version the push is for, when the server says. */
  readonly version?: number;
}

interface PublishWaiter {
  readonly uri: string;
  readonly wake: () => void;
  readonly fresh: () => boolean;
}

/** The diagnostics a server pushed (`textDocument/publishDiagnostics`), and waits for the next. */
export class PushedDiagnostics {
  private readonly published = new Map<string, Pushed>();
  private waiters: PublishWaiter[] = [];

  /** The diagnostics last pushed for a document, and how many pushes it has had. */
  get(uri: string): Pushed {
    return this.published.get(uri) ?? { count: 0, items: [] };
  }

  /** Records a push and wakes who waited for it. */
  record(p: { uri: string; diagnostics: Diagnostic[]; version?: number }): void {
    const count = this.get(p.uri).count + 1;
    this.published.set(p.uri, {
      count,
      items: p.diagnostics,
      ...(typeof p.version === "number" ? { version: p.version } : {}),
    });
    for (const w of this.waiters.filter((w) => w.uri === p.uri && w.fresh())) w.wake();
  }

  /** Wakes every waiter (the server ended). */
  wakeAll(): void {
    for (const w of this.waiters.splice(0)) w.wake();
  }

  /** See `LspClient.waitForPush`; `ended` says whether the server already ended. */
  waitFor(
    uri: string,
    after: number,
    timeoutMs: number,
    signal: AbortSignal,
    version: number | undefined,
    ended: boolean,
  ): Promise<boolean> {
    const fresh = () => {
      const p = this.get(uri);
      const current = version === undefined || p.version === undefined || p.version >= version;
      return p.count > after && current;
    };
    if (fresh()) return Promise.resolve(true);
    if (ended || signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(fresh());
      };
      const waiter: PublishWaiter = { uri, wake: done, fresh };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener("abort", done, { once: true });
      this.waiters.push(waiter);
    });
  }
}
