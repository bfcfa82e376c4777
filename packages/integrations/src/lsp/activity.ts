/** What a `$/progress` notification carries that matters here. */
export interface ProgressParams {
  readonly token: string | number;
  readonly value?: { readonly kind?: string };
}

/** rust-analyzer's `experimental/serverStatus` (what matters here). */
export interface ServerStatusParams {
  readonly quiescent?: boolean;
}

/**
 * Whether a server is busy (starting, loading or indexing): a work-done progress token is
 * open, or a server that reports its status (rust-analyzer's `experimental/serverStatus`)
 * has not said it is quiescent yet. Such a server counts as busy from its start, since its
 * first answers, before the project is loaded, are empty.
 */
export class ServerActivity {
  private readonly openTokens = new Set<string | number>();
  private quiescent: boolean;
  private idleWaiters: (() => void)[] = [];
  private ended = false;

  constructor(reportsStatus: boolean) {
    this.quiescent = !reportsStatus;
  }

  /** True while a progress token is open or the server has not said it is quiescent. */
  get busy(): boolean {
    return this.openTokens.size > 0 || !this.quiescent;
  }

  /** A `$/progress` notification. */
  progress(p: ProgressParams): void {
    if (p.value?.kind === "begin") this.openTokens.add(p.token);
    else if (p.value?.kind === "end") {
      this.openTokens.delete(p.token);
      this.wakeIfIdle();
    }
  }

  /** An `experimental/serverStatus` notification. */
  status(p: ServerStatusParams): void {
    if (typeof p.quiescent !== "boolean") return;
    this.quiescent = p.quiescent;
    this.wakeIfIdle();
  }

  /** The server ended: every wait resolves (not idle). */
  end(): void {
    this.ended = true;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  /**
   * Resolves true once the server is not busy, false after `timeoutMs`, when the signal
   * aborts or when the server ends. Never rejects.
   */
  whenIdle(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (!this.busy) return Promise.resolve(true);
    if (this.ended || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.idleWaiters = this.idleWaiters.filter((w) => w !== done);
        resolve(!this.busy && !this.ended);
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener("abort", done, { once: true });
      this.idleWaiters.push(done);
    });
  }

  private wakeIfIdle(): void {
    if (!this.busy) for (const w of this.idleWaiters.splice(0)) w();
  }
}
