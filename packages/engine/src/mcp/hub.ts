import type { McpServer } from "@z-engine/config";
import {
  DEFAULT_START_TIMEOUT_MS,
  type McpConnection,
  type McpLoginResult,
} from "@z-engine/integrations";
import type { McpServerStatus, ToolSpec } from "@z-engine/protocol";
import type { Tool } from "@z-engine/tools";

import { McpToolCatalog } from "./tool-catalog.js";
import { type McpHubOptions, rootsText } from "./hub-options.js";

export type { McpHubOptions, McpReporter } from "./hub-options.js";
import { BackgroundTasks, StartGate } from "./hub-background.js";
import { loginServer, logoutServer, serversLoggedIn } from "./hub-login.js";
import { checkedEntries } from "./entries.js";
import {
  catalogSources,
  instructionsReminder,
  type Running,
  runningServer,
  serverStatus,
  startedServer,
  withheldKeysMessage,
  withinMs,
} from "./running-server.js";
import { type ServerContext, serverEntries } from "./specs.js";
import { startNotice } from "./start-notice.js";

/**
 * A session's MCP servers (engine/src/mcp): starts them in the background from the effective
 * settings, emits `mcpServerUpdated` on each change and one notice per start batch, offers
 * their tools (deferred above 40, see McpToolCatalog), restarts only changed entries on
 * `reconcile`, and stops them all on `close`. Nothing here blocks a model request.
 */
export class McpHub {
  private readonly servers = new Map<string, Running>();
  private readonly tasks = new BackgroundTasks();
  private readonly catalog: McpToolCatalog;
  private instructionCount = 0;
  private startsAwaited = false;
  /** The roots servers were last told of. */
  private lastRoots: string | undefined;
  private closed = false;
  private readonly gate = new StartGate();

  constructor(private readonly options: McpHubOptions) {
    this.catalog = new McpToolCatalog(
      () => catalogSources(this.servers.values()),
      options.reminders,
      (text) => this.report("warning", "mcp.toolNames", text),
    );
    this.lastRoots = rootsText(this.options);
  }

  /**
   * Holds server starts until {@link releaseStarts} (the session's first request went out,
   * or the session sits idle) or `fallbackMs` passed, so that loading the MCP SDK and
   * spawning servers never slows the first request. Starts begun after the release are not held.
   */
  holdStarts(fallbackMs = 2000): void {
    this.gate.hold(fallbackMs);
  }

  /** Lets held starts begin (idempotent). */
  releaseStarts(): void {
    this.gate.release();
  }

  /** A notice from the MCP servers' side (a slow call, a login needed); never rejects. */
  report(level: "info" | "warning", code: string, message: string): void {
    this.tasks.track(this.options.journal.notice(level, code, message));
  }

  /** True when any server is configured (enabled or not). */
  get configured(): boolean {
    return this.servers.size > 0;
  }

  /**
   * Brings the running servers in line with `servers`: new entries start, entries whose
   * settings (or folder: see `context.launch`) changed restart, removed ones stop; unchanged
   * ones keep running. Returns at once (starts run in the background). Never throws.
   */
  reconcile(servers: Readonly<Record<string, McpServer>>, context: ServerContext): void {
    if (this.closed) return;
    const entries = checkedEntries(serverEntries(servers, context));
    const names = new Set(entries.map((e) => e.entry.spec.name));
    for (const [name, running] of [...this.servers]) {
      if (names.has(name)) continue;
      this.servers.delete(name);
      this.tasks.track(running.conn?.close());
      this.emit({ ...serverStatus(running), state: "stopped", tools: 0 });
    }
    const starting: Running[] = [];
    for (const checked of entries) {
      const entry = checked.entry;
      const existing = this.servers.get(entry.spec.name);
      if (existing?.entry.key === entry.key && existing.problem === checked.problem) continue;
      if (existing) this.tasks.track(existing.conn?.close());
      const running = runningServer(checked, this.options, (r) => this.changed(r));
      this.servers.set(entry.spec.name, running);
      if (running.conn) starting.push(running);
      else this.changed(running);
      if (running.problem)
        this.report(
          "warning",
          "mcp.servers",
          `MCP server ${entry.spec.name} failed: ${running.problem}`,
        );
    }
    this.invalidate();
    if (starting.length > 0) this.tasks.track(this.startAll(starting));
  }

  /**
   * Resolves once every start and stop begun so far has finished (tests, `zeng mcp list`).
   * Someone waiting for the servers releases held starts: the hold's fallback timer does not
   * keep the process alive, so waiting on it could end a script with nothing else to do.
   */
  async settled(): Promise<void> {
    this.releaseStarts();
    await this.tasks.settled();
  }

  private async startAll(batch: readonly Running[]): Promise<void> {
    await this.gate.opened;
    if (this.closed) return;
    for (const { entry } of batch)
      if (entry.withheld.length > 0)
        await this.options.journal.notice("warning", "mcp.keyWithheld", withheldKeysMessage(entry));
    await Promise.all(batch.map((r) => r.conn?.start()));
    if (this.closed) return;
    const current = batch.filter((r) => this.servers.get(r.entry.spec.name) === r);
    if (current.length === 0) return;
    const notice = startNotice(current.flatMap(startedServer));
    await this.options.journal.notice(notice.level, "mcp.servers", notice.text);
  }

  private emit(status: McpServerStatus): void {
    this.options.journal.emit({ type: "mcpServerUpdated", server: status });
  }

  private changed(r: Running): void {
    if (this.servers.get(r.entry.spec.name) !== r || this.closed) return;
    this.remindInstructions(r);
    const status = serverStatus(r);
    const text = JSON.stringify(status);
    if (text !== r.lastEvent) {
      r.lastEvent = text;
      this.emit(status);
    }
    this.invalidate();
  }

  /** A ready server's instructions, once per text (see {@link instructionsReminder}). */
  private remindInstructions(r: Running): void {
    const text = instructionsReminder(r);
    if (text === undefined) return;
    const key = `mcp-instructions:${r.entry.spec.name}:${++this.instructionCount}`;
    this.options.reminders.add({ key, text });
  }

  /**
   * Resolves once the tool lists that servers announced as changed have arrived (at most
   * `limitMs`), so the next request offers them. Server starts are not waited on, but in a
   * headless session (`waitForStarts`) the first request waits for the servers' starts, each
   * up to its start timeout: no one is there to ask again once they are ready.
   */
  async refreshed(limitMs = 5000): Promise<void> {
    if (this.options.waitForStarts && !this.startsAwaited) {
      this.startsAwaited = true;
      await this.startsSettled();
    }
    const pending = this.connections().flatMap((c) => (c.refreshing ? [c.refreshing] : []));
    if (pending.length > 0) await withinMs(Promise.all(pending), limitMs);
  }

  /**
   * Releases held starts and resolves once the starts in flight ended (ready, failed or
   * waiting for a login), or the longest start timeout of the entries passed.
   */
  async startsSettled(): Promise<void> {
    this.releaseStarts();
    const limit = Math.max(
      DEFAULT_START_TIMEOUT_MS,
      ...[...this.servers.values()].map((r) => r.entry.spec.timeoutMs ?? 0),
    );
    await withinMs(this.settled(), limit + 1000);
  }

  private invalidate(): void {
    this.catalog.invalidate();
  }

  /** Whether the next request defers MCP tool definitions. */
  get deferred(): boolean {
    return this.catalog.deferred;
  }

  /** {@link McpToolCatalog.requestTools}; none when no server is configured. */
  requestTools(): Tool[] {
    return this.configured ? this.catalog.requestTools() : [];
  }

  /** {@link requestTools} as specs, each converted once per tool list. */
  requestSpecs(): ToolSpec[] {
    return this.configured ? this.catalog.requestSpecs() : [];
  }

  /** A tool the model may call by name: a server tool (loaded or not) or one of the MCP built-ins. */
  find(name: string): Tool | undefined {
    return this.configured ? this.catalog.find(name) : undefined;
  }

  /** {@link McpToolCatalog.deferredTools}; none when no server is configured. */
  deferredTools(): { name: string; description: string }[] {
    return this.configured ? this.catalog.deferredTools() : [];
  }

  /** Marks deferred tools as loaded; returns the names found and those unknown. */
  load(names: readonly string[]): { loaded: string[]; unknown: string[] } {
    return this.catalog.load(names);
  }

  /** Every state, in configuration order. */
  status(): McpServerStatus[] {
    return [...this.servers.values()].map((r) => serverStatus(r));
  }

  /** A server's connection by its own name (undefined when unknown or disabled). */
  connection(name: string): McpConnection | undefined {
    return this.servers.get(name)?.conn ?? undefined;
  }

  /** Every connection that is not disabled. */
  connections(): McpConnection[] {
    return [...this.servers.values()].flatMap((r) => (r.conn ? [r.conn] : []));
  }

  /**
   * Logs in to a configured remote server (the browser through `open`), then restarts it so
   * that its tools join. Rejects with McpError when the server is unknown, is not remote, or
   * the login fails (the reason in the message); never opens anything itself.
   */
  async login(
    name: string,
    open: (url: URL) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<McpLoginResult> {
    const result = await loginServer(this.servers, name, this.options, open, signal);
    this.restart(name);
    return result;
  }

  /** Forgets a remote server's tokens (`logout`) and restarts it. Resolves true when there were any. */
  async logout(name: string): Promise<boolean> {
    const had = await logoutServer(this.servers, name, this.options);
    this.restart(name);
    return had;
  }

  /** The servers with stored OAuth tokens (what a logout forgets), in configuration order. Never rejects. */
  async loggedIn(): Promise<string[]> {
    return await serversLoggedIn(this.servers, this.options);
  }

  /** Starts a server again with the same entry (after a login or logout). */
  private restart(name: string): void {
    const r = this.servers.get(name);
    if (!r?.conn || this.closed) return;
    this.tasks.track(r.conn.close());
    const fresh = runningServer({ entry: r.entry }, this.options, (c) => this.changed(c));
    this.servers.set(name, fresh);
    this.invalidate();
    if (fresh.conn) this.tasks.track(this.startAll([fresh]));
  }

  /**
   * Tells every ready server that the roots changed (`roots/list_changed`), when they did:
   * a settings reload that keeps the same folders sends nothing.
   */
  rootsChanged(): void {
    const now = rootsText(this.options);
    if (now === this.lastRoots) return;
    this.lastRoots = now;
    for (const conn of this.connections()) this.tasks.track(conn.rootsChanged());
  }

  /** Stops every server and waits for them (no process outlives the session). Safe twice. */
  async close(): Promise<void> {
    this.closed = true;
    this.releaseStarts();
    const all = [...this.servers.values()];
    await Promise.all(all.map((r) => r.conn?.close()));
    await this.settled();
  }
}
