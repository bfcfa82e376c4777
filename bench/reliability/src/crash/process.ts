import { type ChildProcess, spawn } from "node:child_process";

/** How a run ended: its exit code, or the signal that killed it. */
export interface RunExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * A host process (a `zeng -p` run, or the Postgres host) started as the leader of its own
 * process group, so that one SIGKILL takes its shells, MCP servers and git with it. Its
 * stdout is kept as complete lines: a line that reached the pipe whole is acknowledged.
 */
export class HostProcess {
  readonly child: ChildProcess;
  /** The complete stdout lines so far, in order. */
  readonly lines: string[] = [];
  /** Resolves once the process is gone and its pipes are drained. */
  readonly exited: Promise<RunExit>;
  stderr = "";
  private partial = "";
  private readonly waiters = new Set<() => void>();
  private gone = false;

  constructor(command: string, args: readonly string[], env: Record<string, string>, cwd: string) {
    this.child = spawn(command, args, {
      env,
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      const text = this.partial + chunk;
      const cut = text.lastIndexOf("\n");
      if (cut === -1) {
        this.partial = text;
        return;
      }
      for (const line of text.slice(0, cut).split("\n")) this.lines.push(line);
      this.partial = text.slice(cut + 1);
      this.wake();
    });
    this.child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      if (this.stderr.length < 64_000) this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.on("close", (code, signal) => {
        this.gone = true;
        this.wake();
        resolve({ code, signal });
      });
    });
  }

  /** True once the process has exited. */
  get done(): boolean {
    return this.gone;
  }

  /**
   * Resolves with the index of the first line (from `from` on) that `test` accepts; with -1
   * when the process ends first or `timeoutMs` passes.
   */
  async waitForLine(
    test: (line: string) => boolean,
    from = 0,
    timeoutMs = 30_000,
  ): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.lines.findIndex((line, n) => n >= from && test(line));
      if (i !== -1) return i;
      if (this.gone || Date.now() > deadline) return -1;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(1, deadline - Date.now()));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  /** SIGKILL to the whole process group; resolves once the leader is gone. */
  async kill(): Promise<RunExit> {
    if (!this.gone && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    return this.exited;
  }

  private wake(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}
