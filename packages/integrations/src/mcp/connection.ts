import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { cleanServerText } from "./clean-text.js";
import { mcpErrorIn } from "./failure-text.js";
import { completeAuthorization } from "./oauth/login-session.js";
import { type OpenedClient, openClient } from "./open-client.js";
import { ServerRequests } from "./requests.js";
import { loadSdk } from "./sdk.js";
import { ToolRefresher } from "./tool-refresh.js";
import {
  countedHooks,
  failureReason,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_START_TIMEOUT_MS,
  listServerTools,
  MAX_INSTRUCTIONS_LENGTH,
  type McpConnectionOptions,
  TERMINATE_WAIT_MS,
  WAIT_NOTICE_MS,
  withinMs,
} from "./connection-parts.js";

export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_START_TIMEOUT_MS,
  MAX_INSTRUCTIONS_LENGTH,
  type McpConnectionOptions,
  WAIT_NOTICE_MS,
} from "./connection-parts.js";
import { McpError, type McpServerSpec, type McpServerState, type McpToolInfo } from "./types.js";

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
    return failureReason(error, this.options.spec, this.opened?.opened.stderrTail() ?? "");
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
          hooks: countedHooks(this.options.hooks ?? {}, (delta) => {
            this.asking += delta;
          }),
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
      this.tools = caps.tools ? await listServerTools(client, timeout) : [];
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

  private async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client) return;
    try {
      const tools = await listServerTools(client, DEFAULT_START_TIMEOUT_MS);
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
