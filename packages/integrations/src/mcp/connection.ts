import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ExpandEnv } from "./expand.js";
import { listAll, loadSdk, toPrompt, toResource, toTool } from "./sdk.js";
import { type OpenedTransport, openTransport } from "./transport.js";
import {
  type McpCallOptions,
  type McpCallResult,
  McpError,
  type McpPromptInfo,
  type McpResourceInfo,
  type McpServerSpec,
  type McpServerState,
  type McpToolInfo,
} from "./types.js";
import { convertCallResult, convertReadResult } from "./convert.js";
import { type PromptText, promptMessages } from "./prompt-text.js";
import { waitReporter } from "./wait-reporter.js";

/** Start (connect and first tool list) allowed when the spec sets no timeout. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;
/** A call allowed when the spec sets no timeout (progress notifications restart the clock). */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** A tool listing after `tools/list_changed` waits for the server to be quiet this long. */
const LIST_QUIET_MS = 30;
/** ...but no longer than this after the first notice. */
const LIST_MAX_WAIT_MS = 2000;
/** How long a call waits in silence before its `onWaiting` is told (then again as often). */
export const WAIT_NOTICE_MS = 15_000;

/** What an {@link McpConnection} is built from. */
export interface McpConnectionOptions {
  readonly spec: McpServerSpec;
  /** For `${VAR}` expansion and a stdio child's environment (never `process.env` implicitly). */
  readonly env: ExpandEnv;
  /** A stdio child's working folder (the project). */
  readonly cwd: string;
  /** Called after each change of state or of the tool list. Must not throw. */
  readonly onChange?: () => void;
  readonly clock?: () => number;
  /** How often a silent call reports through `onWaiting` (default: a quarter of its limit, at most {@link WAIT_NOTICE_MS}). */
  readonly waitNoticeMs?: number;
}

/**
 * One MCP server: starts it, keeps its tool list (refreshed on `notifications/tools/list_changed`),
 * calls tools, lists and reads resources and prompts. A dropped connection leaves the tools
 * listed; the next call reconnects once, and when that fails the server stays `failed`.
 * Sampling and elicitation requests are answered with an error (not supported), never left
 * waiting. The SDK is loaded when the first server starts.
 */
export class McpConnection {
  state: McpServerState = "stopped";
  /** Why the server failed or disconnected. */
  error: string | undefined;
  tools: readonly McpToolInfo[] = [];
  /** Milliseconds from start to ready, of the last successful start. */
  startMs: number | undefined;
  /** The tool list being fetched after `notifications/tools/list_changed`, until it arrives. */
  refreshing: Promise<void> | undefined;
  private client: Client | undefined;
  private opened: OpenedTransport | undefined;
  private closed = false;
  private reconnectSpent = false;
  /** Set when `tools/list_changed` came and the list was not fetched since. */
  private refreshAgain = false;
  /** Restarts the quiet period before a listing (while one is being waited for). */
  private quiet: (() => void) | undefined;
  private reconnecting: Promise<void> | undefined;
  private starting: Promise<void> | undefined;
  private capabilities: { resources: boolean; prompts: boolean } = {
    resources: false,
    prompts: false,
  };

  constructor(private readonly options: McpConnectionOptions) {}

  get name(): string {
    return this.options.spec.name;
  }

  get spec(): McpServerSpec {
    return this.options.spec;
  }

  /** The stdio child's process id while it runs, else null. */
  get pid(): number | null {
    return this.opened?.pid() ?? null;
  }

  private set(state: McpServerState, error?: string): void {
    this.state = state;
    this.error = error;
    this.options.onChange?.();
  }

  /** Starts the server; resolves once it is ready or failed (see `state`, `error`). Never rejects. */
  start(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.set("starting");
    const run = this.connect().catch((error) => {
      if (!this.closed) this.set("failed", this.reason(error));
    });
    this.starting = run.finally(() => {
      if (this.starting === tracked) this.starting = undefined;
    });
    const tracked = this.starting;
    return tracked;
  }

  private reason(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const tail = this.opened?.stderrTail() ?? "";
    return tail && !message.includes(tail) ? `${message} (stderr: ${tail})` : message;
  }

  private async connect(): Promise<void> {
    const started = (this.options.clock ?? Date.now)();
    const timeout = this.options.spec.timeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    const sdk = await loadSdk();
    const opened = await openTransport(this.options.spec, this.options.env, this.options.cwd);
    this.opened = opened;
    if (this.closed) {
      await opened.transport.close().catch(() => {});
      throw new McpError("cancelled", "closed while starting");
    }
    const client = sdk.newClient();
    client.onclose = () => this.dropped(client);
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      if (this.client === client) this.toolsChanged(client);
    });
    try {
      await client.connect(opened.transport, { timeout });
      const caps = client.getServerCapabilities() ?? {};
      this.capabilities = { resources: !!caps.resources, prompts: !!caps.prompts };
      this.tools = caps.tools ? await this.listTools(client, timeout) : [];
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => {});
      throw error;
    }
    if (this.closed) {
      await client.close().catch(() => {});
      return;
    }
    this.client = client;
    this.reconnectSpent = false;
    this.startMs = (this.options.clock ?? Date.now)() - started;
    this.set("ready");
  }

  private async listTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
    const tools = await listAll((cursor) =>
      client
        .listTools(cursor ? { cursor } : {}, { timeout })
        .then((r) => ({ items: r.tools, next: r.nextCursor })),
    );
    return tools.map(toTool);
  }

  /**
   * A flood of `tools/list_changed` costs one listing, not one per notice: the listing starts
   * once the server has been quiet for {@link LIST_QUIET_MS} (or {@link LIST_MAX_WAIT_MS}
   * after the first notice, for a server that never stops), and notices that come while it
   * runs ask for one more. `refreshing` is set from the first notice on, so a request waits
   * for the new list.
   */
  private toolsChanged(client: Client): void {
    this.refreshAgain = true;
    if (this.refreshing) {
      this.quiet?.();
      return;
    }
    const run = (async () => {
      while (this.refreshAgain && this.client === client) {
        await this.quietPeriod();
        this.refreshAgain = false;
        await this.refreshTools(client);
      }
    })().finally(() => {
      if (this.refreshing === run) this.refreshing = undefined;
    });
    this.refreshing = run;
  }

  /** Resolves once no notice came for LIST_QUIET_MS, or LIST_MAX_WAIT_MS passed. */
  private quietPeriod(): Promise<void> {
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        clearTimeout(cap);
        this.quiet = undefined;
        resolve();
      };
      const cap = setTimeout(done, LIST_MAX_WAIT_MS).unref();
      this.quiet = () => {
        clearTimeout(timer);
        timer = setTimeout(done, LIST_QUIET_MS).unref();
      };
      this.quiet();
    });
  }

  private async refreshTools(client: Client): Promise<void> {
    try {
      const tools = await this.listTools(client, DEFAULT_START_TIMEOUT_MS);
      if (this.client !== client) return;
      this.tools = tools;
      this.options.onChange?.();
    } catch {
      // The old list stays; a dropped connection reports itself through onclose.
    }
  }

  private dropped(client: Client): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.set("disconnected", `the connection closed${this.tailNote()}`);
  }

  private tailNote(): string {
    const tail = this.opened?.stderrTail() ?? "";
    return tail ? ` (stderr: ${tail})` : "";
  }

  /** A ready client, reconnecting once after a drop. Rejects with McpError when there is none. */
  private async ready(): Promise<Client> {
    if (this.state === "disconnected" && !this.reconnectSpent) {
      this.reconnectSpent = true;
      this.reconnecting ??= this.start().finally(() => {
        this.reconnecting = undefined;
      });
    }
    if (this.reconnecting) await this.reconnecting;
    if (this.state === "ready" && this.client) return this.client;
    const why = this.error ? `: ${this.error}` : "";
    const code = this.state === "starting" ? "notReady" : "connectionLost";
    throw new McpError(code, `the MCP server "${this.name}" is ${this.state}${why}`);
  }

  private callTimeout(): number {
    return this.options.spec.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  /** Wraps a request so that failures become McpError with a clear message. */
  private async request<T>(what: string, signal: AbortSignal, run: (c: Client) => Promise<T>) {
    // A ready connection is used at once; `ready()` waits for (or starts) a reconnect.
    const client =
      this.state === "ready" && this.client && !this.reconnecting
        ? this.client
        : await this.ready();
    try {
      return await run(client);
    } catch (error) {
      if (signal.aborted)
        throw new McpError("cancelled", `${what} was cancelled`, { cause: error });
      const message = error instanceof Error ? error.message : String(error);
      if (this.client !== client)
        throw new McpError(
          "connectionLost",
          `the connection to "${this.name}" closed during ${what}${this.tailNote()}`,
          { cause: error },
        );
      const code = /timed out/i.test(message) ? "timeout" : "protocol";
      throw new McpError(code, `${what} failed: ${message}`, { cause: error });
    }
  }

  /**
   * Calls a tool; cancelling `signal` sends `notifications/cancelled`, progress notifications
   * reach `onProgress`. Resolves with the converted result (a tool's own error is a result
   * with `isError`); rejects with {@link McpError} when the server is gone, the call timed
   * out or was cancelled, or the server answered with a protocol error.
   */
  callTool(
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions & { readonly vision?: boolean },
  ): Promise<McpCallResult> {
    return this.request(`the call of ${tool}`, options.signal, async (client) => {
      const limit = this.callTimeout();
      // A short limit reports sooner: four times before it gives up, at most every 15 s.
      const every = this.options.waitNoticeMs ?? Math.min(WAIT_NOTICE_MS, Math.max(50, limit / 4));
      const waiting = waitReporter(options, limit, every);
      try {
        const result = await client.callTool({ name: tool, arguments: args }, undefined, {
          signal: options.signal,
          timeout: limit,
          resetTimeoutOnProgress: true,
          onprogress: (p: { progress: number; total?: number; message?: string }) => {
            waiting.heard();
            options.onProgress?.(
              p.message ?? `progress ${p.progress}${p.total ? `/${p.total}` : ""}`,
            );
          },
        });
        return convertCallResult(result, options.vision ?? true);
      } finally {
        waiting.stop();
      }
    });
  }

  /** Whether the server offers resources / prompts (from its capabilities). */
  offers(kind: "resources" | "prompts"): boolean {
    return this.capabilities[kind];
  }

  /** Every resource the server lists. Rejects with McpError. */
  listResources(signal: AbortSignal): Promise<McpResourceInfo[]> {
    return this.request("listing resources", signal, async (client) => {
      const items = await listAll((cursor) =>
        client
          .listResources(cursor ? { cursor } : {}, { signal, timeout: this.callTimeout() })
          .then((r) => ({ items: r.resources, next: r.nextCursor })),
      );
      return items.map(toResource);
    });
  }

  /** One resource's contents as text blocks. Rejects with McpError. */
  readResource(uri: string, signal: AbortSignal) {
    return this.request(`reading ${uri}`, signal, async (client) =>
      convertReadResult(
        await client.readResource({ uri }, { signal, timeout: this.callTimeout() }),
      ),
    );
  }

  /** Every prompt the server lists. Rejects with McpError. */
  listPrompts(signal: AbortSignal): Promise<McpPromptInfo[]> {
    return this.request("listing prompts", signal, async (client) => {
      const items = await listAll((cursor) =>
        client
          .listPrompts(cursor ? { cursor } : {}, { signal, timeout: this.callTimeout() })
          .then((r) => ({ items: r.prompts, next: r.nextCursor })),
      );
      return items.map(toPrompt);
    });
  }

  /** A prompt filled with `args`, as text messages. Rejects with McpError (e.g. a missing argument). */
  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<PromptText> {
    return this.request(`the prompt ${name}`, signal, async (client) =>
      promptMessages(
        await client.getPrompt({ name, arguments: args }, { signal, timeout: this.callTimeout() }),
      ),
    );
  }

  /** Stops the server (a stdio child is ended). Resolves once it is closed; safe to call twice. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.onclose = undefined;
      await client.close().catch(() => {});
    } else await this.opened?.transport.close().catch(() => {});
    // A start in flight sees `closed` and closes what it opened.
    await this.starting;
    if (this.state !== "stopped") this.set("stopped");
  }
}
