import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ChildSpawner } from "../child-spawner.js";
import { cleanServerText } from "./clean-text.js";
import type { ExpandEnv } from "./expand.js";
import { failureText, mcpErrorIn } from "./failure-text.js";
import { completeAuthorization } from "./oauth/login-session.js";
import { type McpAuthOptions, type OpenedClient, openClient } from "./open-client.js";
import { ServerRequests } from "./requests.js";
import { listAll, loadSdk, toTool } from "./sdk.js";
import { ToolRefresher } from "./tool-refresh.js";
import {
  type McpClientHooks,
  McpError,
  type McpServerSpec,
  type McpServerState,
  type McpToolInfo,
} from "./types.js";

/** Start (connect and first tool list) allowed when the spec sets no timeout. */
export const DEFAULT_START_TIMEOUT_MS = 30_000;
/** A call allowed when the spec sets no timeout (progress notifications restart the clock). */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** How long a call waits in silence before its `onWaiting` is told (then again as often). */
export const WAIT_NOTICE_MS = 15_000;
/** The longest server instructions kept (the model reads them on every request). */
export const MAX_INSTRUCTIONS_LENGTH = 4000;
/** How long closing waits for the DELETE that ends a streamable HTTP session. */
const TERMINATE_WAIT_MS = 2000;

/** What an {@link McpConnection} is built from. */
export interface McpConnectionOptions {
  readonly spec: McpServerSpec;
  /** For `${VAR}` expansion (never `process.env` implicitly). */
  readonly env: ExpandEnv;
  /** Starts a stdio server (its folder and scrubbed environment are the spawner's). */
  readonly spawn: ChildSpawner;
  /** Called after each change of state or of the tool list. Must not throw. */
  readonly onChange?: () => void;
  readonly clock?: () => number;
  /** How often a silent call reports through `onWaiting` (default: a quarter of its limit, at most {@link WAIT_NOTICE_MS}). */
  readonly waitNoticeMs?: number;
  /** Elicitation, roots and sampling as the client answers them (each one advertised). */
  readonly hooks?: McpClientHooks;
  /** OAuth for remote servers: the token store, and a login when a person is at hand. */
  readonly auth?: McpAuthOptions;
}

/**
 * One MCP server: starts it, keeps its tool list (refreshed on `notifications/tools/list_changed`),
 * calls tools, lists and reads resources, templates and prompts. A dropped connection leaves
 * the tools listed; the next call reconnects once, and when that fails the server stays
 * `failed`. A remote server that wants an OAuth login is `needsLogin` (with a connection given
 * `auth.login`, the login happens instead, and again for a step-up). Requests the hooks do not
 * answer get an error naming them, never silence. The SDK is loaded when the first server starts.
 */
export class McpConnection extends ServerRequests {
  state: McpServerState = "stopped";
  /** Why the server failed, disconnected or needs a login. */
  error: string | undefined;
  tools: readonly McpToolInfo[] = [];
  /** The server's `instructions` (cleaned, at most 4,000 characters), once ready. */
  instructions: string | undefined;
  /** Milliseconds from start to ready, of the last successful start. */
  startMs: number | undefined;
  private opened: OpenedClient | undefined;
  private closed = false;
  private reconnectSpent = false;
  private reconnecting: Promise<void> | undefined;
  private starting: Promise<void> | undefined;
  /** Authorization pages opened since the last request that succeeded (see OpenContext). */
  protected readonly authorizations = { count: 0 };
  private readonly refresher = new ToolRefresher(
    () => this.refreshTools(),
    () => this.client !== undefined,
  );

  constructor(private readonly options: McpConnectionOptions) {
    super();
  }

  get name(): string {
    return this.options.spec.name;
  }

  get spec(): McpServerSpec {
    return this.options.spec;
  }

  /** The stdio child's process id while it runs, else null. */
  get pid(): number | null {
    return this.opened?.opened.pid() ?? null;
  }

  /** The tool list being fetched after `notifications/tools/list_changed`, until it arrives. */
  get refreshing(): Promise<void> | undefined {
    return this.refresher.running;
  }

  protected get callLimitMs(): number {
    return this.options.spec.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  }

  protected get waitEveryMs(): number {
    const limit = this.callLimitMs;
    return this.options.waitNoticeMs ?? Math.min(WAIT_NOTICE_MS, Math.max(50, limit / 4));
  }

  private set(state: McpServerState, error?: string): void {
    this.state = state;
    this.error = error;
    this.options.onChange?.();
  }

  /** Starts the server; resolves once it is ready, failed or needs a login (see `state`, `error`). Never rejects. */
  start(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.set("starting");
    const run = this.connect().catch((error) => {
      if (this.closed) return;
      const login = mcpErrorIn(error)?.code === "needsLogin";
      this.set(login ? "needsLogin" : "failed", this.reason(error));
    });
    this.starting = run.finally(() => {
      if (this.starting === tracked) this.starting = undefined;
    });
    const tracked = this.starting;
    return tracked;
  }

  protected reason(error: unknown): string {
    const own = Object.keys(this.options.spec.headers ?? {}).some(
      (k) => k.toLowerCase() === "authorization",
    );
    const message = failureText(error, this.name, own);
    const tail = this.opened?.opened.stderrTail() ?? "";
    return tail && !message.includes(tail) ? `${message} (stderr: ${tail})` : message;
  }

  private async connect(): Promise<void> {
    const started = (this.options.clock ?? Date.now)();
    const timeout = this.options.spec.timeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    const sdk = await loadSdk();
    for (;;) {
      const opened = await openClient(
        {
          spec: this.options.spec,
          env: this.options.env,
          spawn: this.options.spawn,
          hooks: this.countedHooks(),
          auth: this.options.auth,
          clock: this.options.clock ?? Date.now,
          authorizations: this.authorizations,
        },
        sdk,
      );
      this.opened = opened;
      if (this.closed) {
        await opened.opened.transport.close().catch(() => {});
        throw new McpError("cancelled", "closed while starting");
      }
      try {
        await this.handshake(opened, sdk, timeout);
        break;
      } catch (error) {
        // A login under way: the browser was sent to the authorization page; wait for it.
        if (!(await this.authorized(error, opened, sdk))) throw error;
      }
    }
    if (this.closed) {
      await this.opened?.client.close().catch(() => {});
      return;
    }
    this.client = this.opened?.client;
    this.reconnectSpent = false;
    this.authorizations.count = 0;
    this.startMs = (this.options.clock ?? Date.now)() - started;
    this.set("ready");
  }

  /** The hooks, with elicitations counted: while the user answers, a call's silence is not the server's. */
  private countedHooks(): McpClientHooks {
    const hooks = this.options.hooks ?? {};
    const onElicit = hooks.onElicit;
    if (!onElicit) return hooks;
    return {
      ...hooks,
      onElicit: async (request, signal) => {
        this.asking++;
        try {
          return await onElicit(request, signal);
        } finally {
          this.asking--;
        }
      },
    };
  }

  private async handshake(
    opened: OpenedClient,
    sdk: Awaited<ReturnType<typeof loadSdk>>,
    timeout: number,
  ): Promise<void> {
    const { client } = opened;
    client.onclose = () => this.dropped(client);
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      if (this.client === client) this.refresher.changed();
    });
    try {
      await client.connect(opened.opened.transport, { timeout });
      const caps = client.getServerCapabilities() ?? {};
      this.capabilities = { resources: !!caps.resources, prompts: !!caps.prompts };
      const instructions = client.getInstructions();
      this.instructions = instructions
        ? cleanServerText(instructions, MAX_INSTRUCTIONS_LENGTH)
        : undefined;
      this.tools = caps.tools ? await this.listTools(client, timeout) : [];
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => {});
      throw error;
    }
  }

  /**
   * When a login is under way and the SDK sent the browser to the authorization page, waits
   * for the code and exchanges it; true means: try again (the pages opened in a row are
   * bounded where they are opened, see `open-client.ts`).
   */
  protected async authorized(
    error: unknown,
    opened: OpenedClient | undefined,
    sdk: Awaited<ReturnType<typeof loadSdk>>,
  ): Promise<boolean> {
    const login = this.options.auth?.login;
    const finish = opened?.opened.finishAuth;
    if (!login || !opened?.provider || !finish || !(error instanceof sdk.UnauthorizedError))
      return false;
    await completeAuthorization(login, opened.provider, finish);
    return true;
  }

  private async listTools(client: Client, timeout: number): Promise<McpToolInfo[]> {
    const tools = await listAll((cursor) =>
      client
        .listTools(cursor ? { cursor } : {}, { timeout })
        .then((r) => ({ items: r.tools, next: r.nextCursor })),
    );
    return tools.map(toTool);
  }

  private async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
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

  protected tailNote(): string {
    const tail = this.opened?.opened.stderrTail() ?? "";
    return tail ? ` (stderr: ${tail})` : "";
  }

  protected readyNow(): Client | undefined {
    return this.state === "ready" && !this.reconnecting ? this.client : undefined;
  }

  /** A ready client, reconnecting once after a drop. Rejects with McpError when there is none. */
  protected async ready(): Promise<Client> {
    if (this.state === "disconnected" && !this.reconnectSpent) {
      this.reconnectSpent = true;
      this.reconnecting ??= this.start().finally(() => {
        this.reconnecting = undefined;
      });
    }
    if (this.reconnecting) await this.reconnecting;
    if (this.state === "ready" && this.client) return this.client;
    const why = this.error ? `: ${this.error}` : "";
    const code =
      this.state === "starting"
        ? "notReady"
        : this.state === "needsLogin"
          ? "needsLogin"
          : "connectionLost";
    throw new McpError(code, `the MCP server "${this.name}" is ${this.stateText()}${why}`);
  }

  private stateText(): string {
    return this.state === "needsLogin" ? "waiting for a login" : this.state;
  }

  /** A request failed: a login the server wants now (a step-up, an expired grant) marks the server. */
  protected onRequestFailed(
    error: unknown,
    sdk: Awaited<ReturnType<typeof loadSdk>>,
  ): Promise<boolean> | boolean {
    if (mcpErrorIn(error)?.code === "needsLogin") {
      this.set("needsLogin", this.reason(error));
      return false;
    }
    return this.authorized(error, this.opened, sdk);
  }

  /** Whether `client` is still the connection's (a drop replaces it). */
  protected current(client: Client): boolean {
    return this.client === client;
  }

  /**
   * Tells the server that the roots changed (`notifications/roots/list_changed`), when it is
   * ready and the client offers roots. Never rejects.
   */
  async rootsChanged(): Promise<void> {
    if (!this.options.hooks?.roots || this.state !== "ready") return;
    await this.client?.sendRootsListChanged().catch(() => {});
  }

  /**
   * Stops the server (a stdio child is ended; a streamable HTTP session is ended with a
   * DELETE first, waited on at most 2 s). Resolves once it is closed; safe to call twice.
   */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    const opened = this.opened;
    if (client) {
      client.onclose = undefined;
      if (opened?.opened.terminate) await withinMs(opened.opened.terminate(), TERMINATE_WAIT_MS);
      await client.close().catch(() => {});
    } else await opened?.opened.transport.close().catch(() => {});
    // A start in flight sees `closed` and closes what it opened.
    await this.starting;
    if (this.state !== "stopped") this.set("stopped");
  }
}

/** Waits for `task` at most `ms`; its failure is ignored. */
async function withinMs(task: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    task.catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
