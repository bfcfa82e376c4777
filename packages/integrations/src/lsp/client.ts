import type { ChildProcess } from "node:child_process";
import type {
  Diagnostic,
  ProtocolConnection,
  ServerCapabilities,
} from "vscode-languageserver-protocol/node";
import type { ChildSpawner, SpawnedChild } from "../child-spawner.js";
import { type ProgressParams, ServerActivity, type ServerStatusParams } from "./activity.js";
import { LspError } from "./errors.js";
import { spawnedOrFailed, spawnServer, withTimeout } from "./spawn-server.js";
import { answerClientRequests, initializeParams } from "./handshake.js";
import { type Pushed, PushedDiagnostics } from "./pushed-diagnostics.js";

export type { Pushed } from "./pushed-diagnostics.js";
import { connectTo, loadRpc } from "./rpc.js";
import type { LspServerSpec } from "./specs.js";

/** What a client needs to start its server. */
export interface LspClientOptions {
  readonly spec: LspServerSpec;
  /** The program's absolute path. */
  readonly binary: string;
  /** The project root: its one workspace folder (the spawner starts it there). */
  readonly root: string;
  /** Starts the server (its folder and scrubbed environment are the spawner's). */
  readonly spawn: ChildSpawner;
  /** Called once when the process ends, unless `stop()` ended it. */
  readonly onCrash: (reason: string) => void;
  /** Longest wait for `initialize` (default 30 s). */
  readonly initializeTimeoutMs?: number;
}

const STDERR_KEEP = 2000;

/**
 * One running language server: its process, its JSON-RPC connection, the diagnostics it
 * pushed and the progress tokens it holds open. Built by {@link LspClient.start}.
 */
export class LspClient {
  readonly spec: LspServerSpec;
  capabilities: ServerCapabilities = {};
  private readonly child: ChildProcess;
  private connection: ProtocolConnection | undefined;
  private readonly activity: ServerActivity;
  private readonly pushes = new PushedDiagnostics();
  private stderr = "";
  private stopping = false;
  private exited = false;
  private readonly exit: Promise<void>;
  private readonly stderrDone: Promise<void>;

  private constructor(
    options: LspClientOptions,
    private readonly spawned: SpawnedChild,
  ) {
    this.spec = options.spec;
    this.activity = new ServerActivity(options.spec.reportsStatus === true);
    const child = spawned.process;
    this.child = child;
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    this.stderrDone = new Promise((resolve) => {
      if (!child.stderr) resolve();
      child.stderr?.once("close", () => resolve());
    });
    this.exit = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        this.exited = true;
        this.killGroup();
        this.pushes.wakeAll();
        this.activity.end();
        if (!this.stopping)
          options.onCrash(
            `${this.spec.name} exited (${signal ?? `code ${code}`})${this.stderrTail()}`,
          );
        resolve();
      });
    });
  }

  /**
   * Spawns the server and runs `initialize`/`initialized`. Rejects with an {@link LspError}
   * (`startFailed`, `timeout`) carrying the reason; the process is then stopped.
   */
  static async start(options: LspClientOptions): Promise<LspClient> {
    const spawned = spawnServer(options);
    const child = spawned.process;
    const client = new LspClient(options, spawned);
    const started = spawnedOrFailed(child, options.spec.name);
    try {
      await started;
      child.stdin?.on("error", () => {});
      client.connection = await connectTo(child);
      client.listen();
      const init = client.initialize(options.root);
      const ended = client.exit.then(() => {
        throw new LspError(
          "startFailed",
          `${options.spec.name} exited while starting${client.stderrTail()}`,
        );
      });
      await withTimeout(
        Promise.race([init, ended]),
        options.initializeTimeoutMs ?? 30_000,
        `${options.spec.name} initialize`,
      );
      return client;
    } catch (error) {
      // A write to a server that just died fails before its exit is seen: give it a moment.
      await withTimeout(client.exit, 500, "exit").catch(() => {});
      if (client.exited) {
        // Its last words explain why; stderr may still be draining.
        await withTimeout(client.stderrDone, 500, "stderr").catch(() => {});
        await client.stop();
        throw new LspError(
          "startFailed",
          `${options.spec.name} exited while starting${client.stderrTail()}`,
        );
      }
      await client.stop();
      if (error instanceof LspError) throw error;
      throw new LspError("startFailed", `${options.spec.name}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** The server's process id (the leader of its process group). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * True while the server is starting, loading or indexing: it holds a work-done progress
   * token open, or (a server that reports its status) has not said it is quiescent.
   */
  get busy(): boolean {
    return this.activity.busy;
  }

  /** Resolves when the process has ended (crash or stop). */
  get ended(): Promise<void> {
    return this.exit;
  }

  /**
   * Resolves true once the server is not busy (see {@link LspClient.busy}), false after
   * `timeoutMs`, when the signal aborts or when the server ends. Never rejects.
   */
  whenIdle(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    return this.exited ? Promise.resolve(false) : this.activity.whenIdle(timeoutMs, signal);
  }

  /** True once the process has ended. */
  get dead(): boolean {
    return this.exited;
  }

  /** Whether the server answers `textDocument/diagnostic` (pull diagnostics). */
  get pullsDiagnostics(): boolean {
    return this.capabilities.diagnosticProvider !== undefined;
  }

  /** The diagnostics last pushed for a document, and how many pushes it has had. */
  pushed(uri: string): Pushed {
    return this.pushes.get(uri);
  }

  /**
   * Resolves true when the document gets a push after the `after`-th one (and, when the
   * server gives versions, one for `version` or later), false when `timeoutMs` passes, the
   * signal aborts or the server ends. Never rejects.
   */
  waitForPush(
    uri: string,
    after: number,
    timeoutMs: number,
    signal: AbortSignal,
    version?: number,
  ): Promise<boolean> {
    return this.pushes.waitFor(uri, after, timeoutMs, signal, version, this.exited);
  }

  /** Sends a request; rejects with an {@link LspError} on a server error, a timeout or an abort. */
  async request<R>(
    method: string,
    params: unknown,
    signal: AbortSignal,
    timeoutMs = 60_000,
  ): Promise<R> {
    const connection = this.live();
    const rpc = await loadRpc();
    const source = new rpc.CancellationTokenSource();
    const abort = () => source.cancel();
    signal.addEventListener("abort", abort, { once: true });
    try {
      const reply = connection.sendRequest(method, params, source.token) as Promise<R>;
      const ended = this.exit.then(() => {
        throw new LspError(
          "crashed",
          `${this.spec.name} exited during ${method}${this.stderrTail()}`,
        );
      });
      return await withTimeout(
        Promise.race([reply, ended]),
        timeoutMs,
        `${this.spec.name} ${method}`,
      );
    } catch (error) {
      if (error instanceof LspError) throw error;
      throw new LspError(
        "requestFailed",
        `${this.spec.name} ${method}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    } finally {
      signal.removeEventListener("abort", abort);
      source.dispose();
    }
  }

  /** Sends a notification; ignored once the server has ended. */
  notify(method: string, params: unknown): void {
    if (this.exited || !this.connection) return;
    void this.connection.sendNotification(method, params).catch(() => {});
  }

  /**
   * Stops the server: `shutdown` and `exit` (1 s each at most), then SIGKILL to its whole
   * process group. Resolves once the process has ended. Safe to call twice; never rejects.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (!this.exited && this.connection) {
      try {
        await withTimeout(this.connection.sendRequest("shutdown"), 1000, "shutdown");
        this.notify("exit", undefined);
        await withTimeout(this.exit, 1000, "exit");
      } catch {
        // Killed below.
      }
    }
    this.killGroup();
    if (!this.exited && this.child.pid === undefined) this.exited = true;
    if (!this.exited) await this.exit;
    this.connection?.dispose();
  }

  private killGroup(): void {
    this.spawned.signalGroup("SIGKILL");
  }

  private live(): ProtocolConnection {
    if (this.exited || !this.connection)
      throw new LspError("crashed", `${this.spec.name} is not running${this.stderrTail()}`);
    return this.connection;
  }

  private stderrTail(): string {
    const tail = this.stderr.trim().split("\n").slice(-3).join(" | ");
    return tail ? `: ${tail}` : "";
  }

  private async initialize(root: string): Promise<void> {
    const connection = this.live();
    const result = (await connection.sendRequest(
      "initialize",
      initializeParams(root, this.spec),
    )) as { capabilities?: ServerCapabilities };
    this.capabilities = result.capabilities ?? {};
    await connection.sendNotification("initialized", {});
  }

  /** Answers what servers ask of a client, and tracks diagnostics and progress. */
  private listen(): void {
    const connection = this.live();
    answerClientRequests(connection);
    connection.onNotification("$/progress", (p: ProgressParams) => this.activity.progress(p));
    connection.onNotification("experimental/serverStatus", (p: ServerStatusParams) =>
      this.activity.status(p),
    );
    connection.onNotification(
      "textDocument/publishDiagnostics",
      (p: { uri: string; diagnostics: Diagnostic[]; version?: number }) => this.pushes.record(p),
    );
  }
}
