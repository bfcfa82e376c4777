import type { ReminderQueue } from "@z-engine/context";
import type { McpToolInfo } from "@z-engine/integrations";
import type { ToolSpec } from "@z-engine/protocol";
import {
  listMcpResourcesTool,
  loadMcpToolsTool,
  readMcpResourceTool,
  type Tool,
  toolSpec,
} from "@z-engine/tools";
import {
  DEFER_ABOVE,
  deferredReminderText,
  firstLine,
  renameNotice,
  serverTools,
} from "./catalog.js";

/** One running server's tools, as the catalog reads them. */
export interface CatalogSource {
  readonly name: string;
  readonly tools: readonly McpToolInfo[];
  readonly disabled: ReadonlySet<string>;
}

interface ToolCache {
  readonly version: number;
  readonly tools: readonly Tool[];
  readonly byName: ReadonlyMap<string, Tool>;
  readonly specs: Map<string, ToolSpec>;
}

/** The MCP tools every session with servers gets, before the servers' own. */
const RESOURCE_TOOLS: readonly Tool[] = [listMcpResourcesTool, readMcpResourceTool] as Tool[];

/**
 * The MCP tools of a session's servers as requests offer them: rebuilt once per change of
 * a server or its list (`invalidate`), deferred above {@link DEFER_ABOVE} (a reminder lists
 * the names, LoadMcpTools adds definitions in load order), and one notice per new set of
 * renamed or left-out tools of a server.
 */
export class McpToolCatalog {
  private version = 0;
  private cache: ToolCache | undefined;
  private remindedNames = "";
  private reminderCount = 0;
  private readonly loaded: string[] = [];
  private readonly renames = new Map<string, string>();

  constructor(
    private readonly sources: () => readonly CatalogSource[],
    private readonly reminders: ReminderQueue,
    private readonly notice: (text: string) => void,
  ) {}

  /** A server or its tools changed: the next request rebuilds the list (and a reminder when deferred). */
  invalidate(): void {
    this.version++;
    const tools = this.tools().tools;
    if (tools.length <= DEFER_ABOVE) return;
    const names = tools.map((t) => t.name).join("\n");
    if (names === this.remindedNames) return;
    this.remindedNames = names;
    this.reminders.add({
      key: `mcp-deferred:${++this.reminderCount}`,
      text: deferredReminderText(tools),
    });
  }

  private tools(): ToolCache {
    if (this.cache?.version === this.version) return this.cache;
    const tools: Tool[] = [];
    for (const source of this.sources()) {
      const catalog = serverTools(source.name, source.tools, source.disabled);
      tools.push(...catalog.tools);
      const text = renameNotice(source.name, catalog.renamed);
      if (text !== (this.renames.get(source.name) ?? "")) {
        this.renames.set(source.name, text);
        if (text) this.notice(text);
      }
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    this.cache = { version: this.version, tools, byName, specs: new Map() };
    return this.cache;
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
    const tool = this.tools().byName.get(name);
    if (tool) return tool;
    if (name === loadMcpToolsTool.name)
      return this.deferred ? (loadMcpToolsTool as Tool) : undefined;
    return RESOURCE_TOOLS.find((t) => t.name === name);
  }

  /** When deferred, the server tools not loaded yet (name, first line of the description); else none. */
  deferredTools(): { name: string; description: string }[] {
    const cache = this.tools();
    if (cache.tools.length <= DEFER_ABOVE) return [];
    return cache.tools
      .filter((t) => !this.loaded.includes(t.name))
      .map((t) => ({ name: t.name, description: firstLine(t.description) }));
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
}
