import type { ReminderQueue } from "@z-engine/context";
import type { McpServer } from "@z-engine/config";
import { McpConnection, sanitizeMcpName, serverNameProblem } from "@z-engine/integrations";
import type { McpServerStatus, ToolSpec } from "@z-engine/protocol";
import {
  listMcpResourcesTool,
  loadMcpToolsTool,
  readMcpResourceTool,
  type Tool,
  toolSpec,
} from "@z-engine/tools";
import type { Journal } from "../session/journal.js";

/** Where the hub reports: a session's journal, or a quiet one for `zeng mcp list`. */
export type McpReporter = Pick<Journal, "emit" | "notice">;
import { DEFER_ABOVE, deferredReminderText, renameNotice, serverTools } from "./catalog.js";
import { type ServerEntry, serverEntries } from "./specs.js";

/** What a session's hub is built from. */
export interface McpHubOptions {
  readonly journal: McpReporter;
  readonly reminders: ReminderQueue;
  /** For `${VAR}` expansion and the environment of stdio servers. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where stdio servers run (the project). */
  readonly cwd: string;
  readonly clock: () => number;
}

interface Running {
  readonly entry: ServerEntry;
  /** Null when the entry is disabled (`enabled = false`) or cannot be used (`problem`). */
  readonly conn: McpConnection | null;
  /** Why the entry is not started (a name that would make rules ambiguous). */
  readonly problem?: string;
  lastEvent?: string;
  /** The last rename notice given for its tools. */
  lastRenames?: string;
}

interface ToolCache {
  readonly version: number;
  readonly tools: readonly Tool[];
  readonly byName: ReadonlyMap<string, Tool>;
  readonly specs: Map<string, ToolSpec>;
}

/** An entry and, when it cannot be started, why. */
interface CheckedEntry {
  readonly entry: ServerEntry;
  readonly problem?: string;
}

/**
 * The entries with the ones that cannot be used marked: a name `mcp__` rules could not tell
 * apart (see `serverNameProblem`), or one that names the same rules as an earlier entry
 * (`a.b` and `a_b` are both `mcp__a_b`).
 */
function checkedEntries(entries: readonly ServerEntry[]): CheckedEntry[] {
  const byRuleName = new Map<string, string>();
  return entries.map((entry) => {
    const name = entry.spec.name;
    const problem = serverNameProblem(name);
    if (problem) return { entry, problem };
    const rule = sanitizeMcpName(name);
    const first = byRuleName.get(rule);
    if (first !== undefined)
      return {
        entry,
        problem: `the name "${name}" is "${rule}" in tool names and rules, as the server "${first}" is (rename one of them)`,
      };
    byRuleName.set(rule, name);
    return { entry };
  });
}

/** The MCP tools every session with servers gets, before the servers' own. */
const RESOURCE_TOOLS: readonly Tool[] = [listMcpResourcesTool, readMcpResourceTool] as Tool[];

/**
 * A session's MCP servers (engine/src/mcp): starts them in the background from the effective
 * settings, emits `mcpServerUpdated` on each change and one notice per start batch, offers
 * their tools (deferred above {@link DEFER_ABOVE}), restarts only changed entries on
 * `reconcile`, and stops them all on `close`. Nothing here blocks a model request.
 */
export class McpHub {
  private readonly servers = new Map<string, Running>();
  private readonly loaded: string[] = [];
  private readonly tasks = new Set<Promise<unknown>>();
  private version = 0;
  private cache: ToolCache | undefined;
  private remindedNames = "";
  private reminderCount = 0;
  private closed = false;
  private gate: Promise<void> = Promise.resolve();
  private release: () => void = () => {};

  constructor(private readonly options: McpHubOptions) {}

  /**
   * Holds server starts until {@link releaseStarts} (the session's first request went out,
   * or the session sits idle) or `fallbackMs` passed, so that loading the MCP SDK and
   * spawning servers never slows the first request. Starts begun after the release are not held.
   */
  holdStarts(fallbackMs = 2000): void {
    let release = () => {};
    this.gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const timer = setTimeout(() => this.releaseStarts(), fallbackMs);
    timer.unref();
    this.release = () => {
      clearTimeout(timer);
      release();
    };
  }

  /** Lets held starts begin (idempotent). */
  releaseStarts(): void {
    this.release();
    this.release = () => {};
  }

  /** A notice from the MCP servers' side (a slow call, a login needed); never rejects. */
  report(level: "info" | "warning", code: string, message: string): void {
    this.track(this.options.journal.notice(level, code, message));
  }

  /** True when any server is configured (enabled or not). */
  get configured(): boolean {
    return this.servers.size > 0;
  }

  /**
   * Brings the running servers in line with `servers`: new entries start, entries whose
   * settings changed restart, removed ones stop; unchanged ones keep running. Returns at once
   * (starts run in the background). Never throws.
   */
  reconcile(servers: Readonly<Record<string, McpServer>>): void {
    if (this.closed) return;
    const entries = checkedEntries(serverEntries(servers));
    const names = new Set(entries.map((e) => e.entry.spec.name));
    for (const [name, running] of [...this.servers]) {
      if (names.has(name)) continue;
      this.servers.delete(name);
      this.track(running.conn?.close());
      this.emit({ ...this.statusOf(running), state: "stopped", tools: 0 });
    }
    const starting: Running[] = [];
    for (const checked of entries) {
      const entry = checked.entry;
      const existing = this.servers.get(entry.spec.name);
      if (existing?.entry.key === entry.key && existing.problem === checked.problem) continue;
      if (existing) this.track(existing.conn?.close());
      const running = this.running(checked);
      this.servers.set(entry.spec.name, running);
      if (running.conn) starting.push(running);
      else this.changed(running);
      if (running.problem)
        this.track(
          this.options.journal.notice(
            "warning",
            "mcp.servers",
            `MCP server ${entry.spec.name} failed: ${running.problem}`,
          ),
        );
    }
    this.invalidate();
    if (starting.length > 0) this.track(this.startAll(starting));
  }

  private running({ entry, problem }: CheckedEntry): Running {
    if (problem) return { entry, conn: null, problem };
    const running: Running = {
      entry,
      conn: entry.enabled
        ? new McpConnection({
            spec: entry.spec,
            env: this.options.env,
            cwd: this.options.cwd,
            clock: this.options.clock,
            onChange: () => this.changed(running),
          })
        : null,
    };
    return running;
  }

  private track(task: Promise<unknown> | undefined): void {
    if (!task) return;
    const quiet = task.catch(() => {});
    this.tasks.add(quiet);
    void quiet.finally(() => this.tasks.delete(quiet));
  }

  /**
   * Resolves once every start and stop begun so far has finished (tests, `zeng mcp list`).
   * Someone waiting for the servers releases held starts: the hold's fallback timer does not
   * keep the process alive, so waiting on it could end a script with nothing else to do.
   */
  async settled(): Promise<void> {
    this.releaseStarts();
    while (this.tasks.size > 0) await Promise.all([...this.tasks]);
  }

  private async startAll(batch: readonly Running[]): Promise<void> {
    await this.gate;
    if (this.closed) return;
    await Promise.all(batch.map((r) => r.conn?.start()));
    if (this.closed) return;
    const current = batch.filter((r) => this.servers.get(r.entry.spec.name) === r);
    if (current.length === 0) return;
    const ready = current.filter((r) => r.conn?.state === "ready");
    const failed = current.filter((r) => r.conn?.state !== "ready");
    const parts: string[] = [];
    if (ready.length > 0)
      parts.push(
        `ready: ${ready.map((r) => `${r.entry.spec.name} (${this.toolCount(r)} tools)`).join(", ")}`,
      );
    if (failed.length > 0)
      parts.push(
        `failed: ${failed.map((r) => `${r.entry.spec.name} (${r.conn?.error ?? r.conn?.state})`).join("; ")}`,
      );
    await this.options.journal.notice(
      failed.length > 0 ? "warning" : "info",
      "mcp.servers",
      `MCP servers ${parts.join("; ")}`,
    );
  }

  private toolCount(r: Running): number {
    return (r.conn?.tools ?? []).filter((t) => !r.entry.disabledTools.has(t.name)).length;
  }

  private statusOf(r: Running): McpServerStatus {
    const conn = r.conn;
    if (r.problem)
      return {
        name: r.entry.spec.name,
        state: "failed",
        transport: r.entry.spec.type,
        tools: 0,
        error: r.problem,
      };
    return {
      name: r.entry.spec.name,
      state: conn ? conn.state : "disabled",
      transport: r.entry.spec.type,
      tools: this.toolCount(r),
      ...(conn?.error ? { error: conn.error } : {}),
      ...(conn?.state === "ready" && conn.startMs !== undefined ? { startMs: conn.startMs } : {}),
    };
  }

  private emit(status: McpServerStatus): void {
    this.options.journal.emit({ type: "mcpServerUpdated", server: status });
  }

  private changed(r: Running): void {
    if (this.servers.get(r.entry.spec.name) !== r || this.closed) return;
    const status = this.statusOf(r);
    const text = JSON.stringify(status);
    if (text !== r.lastEvent) {
      r.lastEvent = text;
      this.emit(status);
    }
    this.invalidate();
  }

  private invalidate(): void {
    this.version++;
    const tools = this.tools().tools;
    if (tools.length <= DEFER_ABOVE) return;
    const names = tools.map((t) => t.name).join("\n");
    if (names === this.remindedNames) return;
    this.remindedNames = names;
    this.options.reminders.add({
      key: `mcp-deferred:${++this.reminderCount}`,
      text: deferredReminderText(tools),
    });
  }

  private tools(): ToolCache {
    if (this.cache?.version === this.version) return this.cache;
    const tools: Tool[] = [];
    for (const r of this.servers.values()) {
      if (!r.conn) continue;
      const catalog = serverTools(r.entry.spec.name, r.conn.tools, r.entry.disabledTools);
      tools.push(...catalog.tools);
      this.reportRenames(r, renameNotice(r.entry.spec.name, catalog.renamed));
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    this.cache = { version: this.version, tools, byName, specs: new Map() };
    return this.cache;
  }

  /** One notice per new set of renamed or left-out tools of a server. */
  private reportRenames(r: Running, text: string): void {
    if (text === (r.lastRenames ?? "")) return;
    r.lastRenames = text;
    if (text) this.track(this.options.journal.notice("warning", "mcp.toolNames", text));
  }

  /**
   * Resolves once the tool lists that servers announced as changed have arrived (at most
   * `limitMs`), so the next request offers them. Server starts are never waited on.
   */
  async refreshed(limitMs = 5000): Promise<void> {
    const pending = this.connections().flatMap((c) => (c.refreshing ? [c.refreshing] : []));
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
      timer.unref();
    });
    await Promise.race([Promise.all(pending), limit]);
    clearTimeout(timer);
  }

  /** Every state, in configuration order. */
  status(): McpServerStatus[] {
    return [...this.servers.values()].map((r) => this.statusOf(r));
  }

  /** A server's connection by its own name (undefined when unknown or disabled). */
  connection(name: string): McpConnection | undefined {
    return this.servers.get(name)?.conn ?? undefined;
  }

  /** Every connection that is not disabled. */
  connections(): McpConnection[] {
    return [...this.servers.values()].flatMap((r) => (r.conn ? [r.conn] : []));
  }

  /** Whether the next request defers MCP tool definitions. */
  get deferred(): boolean {
    return this.tools().tools.length > DEFER_ABOVE;
  }

  /**
   * The MCP tools the next request offers: ListMcpResources and ReadMcpResource, then every
   * server tool sorted by name; when deferred, LoadMcpTools and the loaded tools in the order
   * they were loaded (so earlier definitions keep their bytes).
   */
  requestTools(): Tool[] {
    if (!this.configured) return [];
    const cache = this.tools();
    if (cache.tools.length <= DEFER_ABOVE) return [...RESOURCE_TOOLS, ...cache.tools];
    const loaded = this.loaded.flatMap((n) => cache.byName.get(n) ?? []);
    return [...RESOURCE_TOOLS, loadMcpToolsTool as Tool, ...loaded];
  }

  /** {@link requestTools} as specs, each converted once per tool list. */
  requestSpecs(): ToolSpec[] {
    const cache = this.tools();
    return this.requestTools().map((tool) => {
      let spec = cache.specs.get(tool.name);
      if (!spec) {
        spec = toolSpec(tool);
        cache.specs.set(tool.name, spec);
      }
      return spec;
    });
  }

  /** A tool the model may call by name: a server tool (loaded or not) or one of the MCP built-ins. */
  find(name: string): Tool | undefined {
    if (!this.configured) return undefined;
    const tool = this.tools().byName.get(name);
    if (tool) return tool;
    if (name === loadMcpToolsTool.name)
      return this.deferred ? (loadMcpToolsTool as Tool) : undefined;
    return RESOURCE_TOOLS.find((t) => t.name === name);
  }

  /** Marks deferred tools as loaded; returns the names found and those unknown. */
  load(names: readonly string[]): { loaded: string[]; unknown: string[] } {
    const cache = this.tools();
    const loaded: string[] = [];
    const unknown: string[] = [];
    for (const name of names) {
      if (!cache.byName.has(name)) unknown.push(name);
      else {
        loaded.push(name);
        if (!this.loaded.includes(name)) this.loaded.push(name);
      }
    }
    return { loaded, unknown };
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
