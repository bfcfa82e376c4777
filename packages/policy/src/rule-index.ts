import type { CompiledRule } from "./compile.js";

/** The three rule lists `decide()` takes. Treat the arrays as immutable: build new ones to change them. */
export interface PermissionRules {
  readonly allow: readonly CompiledRule[];
  readonly ask: readonly CompiledRule[];
  readonly deny: readonly CompiledRule[];
}

/** Bare tool names that stand for a whole action family, whatever the tool (design.md §3). */
const FAMILY_OF_TOOL: Record<string, FamilyKey> = {
  Bash: "command",
  Read: "read",
  Edit: "write",
  MultiEdit: "write",
  Write: "write",
  NotebookEdit: "write",
  WebFetch: "network",
  Task: "agent",
  Agent: "agent",
};

/** Action families a bare rule can cover. */
export type FamilyKey = "command" | "read" | "write" | "network" | "agent";

/** One list's rules, indexed for matching in (nearly) constant time per action. */
export interface ListIndex {
  /** Bare rules by tool name (they match every action of a call to that tool). */
  readonly byTool: Map<string, CompiledRule>;
  /** Bare rules that stand for a whole family (`Bash`, `Read`, `Edit`, ...). */
  readonly byFamily: Map<FamilyKey, CompiledRule>;
  /** `Bash(...)` rules by their literal first word. */
  readonly commandsByName: Map<string, CompiledRule[]>;
  /** `Bash(...)` rules whose first word holds a wildcard. */
  readonly commandsAnyName: CompiledRule[];
  readonly readPaths: CompiledRule[];
  readonly writePaths: CompiledRule[];
  readonly domains: Map<string, CompiledRule>;
  readonly domainWildcards: CompiledRule[];
  readonly mcpByServer: Map<string, CompiledRule[]>;
  readonly agents: Map<string, CompiledRule>;
  readonly skills: Map<string, CompiledRule>;
}

/** The index of all three lists. */
export interface RuleIndex {
  readonly allow: ListIndex;
  readonly ask: ListIndex;
  readonly deny: ListIndex;
}

const cache = new WeakMap<readonly CompiledRule[], { length: number; index: ListIndex }>();

/**
 * Indexes the three lists, reusing the index of a list array seen before (same array, same
 * length). An empty list shares one empty index, so a caller's fresh `[]` costs nothing; the
 * three are joined in a new record each time (caching that record by the `rules` object would
 * cost more than it saves: callers often pass a fresh one per call).
 */
export function indexRules(rules: PermissionRules): RuleIndex {
  return { allow: indexList(rules.allow), ask: indexList(rules.ask), deny: indexList(rules.deny) };
}

/** The index of an empty list, shared (indexes are never changed once built). */
const EMPTY_INDEX: ListIndex = buildIndex([]);

function indexList(list: readonly CompiledRule[]): ListIndex {
  if (list.length === 0) return EMPTY_INDEX;
  const hit = cache.get(list);
  if (hit && hit.length === list.length) return hit.index;
  const index = buildIndex(list);
  cache.set(list, { length: list.length, index });
  return index;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function buildIndex(list: readonly CompiledRule[]): ListIndex {
  const index: ListIndex = {
    byTool: new Map(),
    byFamily: new Map(),
    commandsByName: new Map(),
    commandsAnyName: [],
    readPaths: [],
    writePaths: [],
    domains: new Map(),
    domainWildcards: [],
    mcpByServer: new Map(),
    agents: new Map(),
    skills: new Map(),
  };
  for (const compiled of list) addToIndex(index, compiled);
  return index;
}

function addToIndex(index: ListIndex, compiled: CompiledRule): void {
  const rule = compiled.rule;
  switch (rule.kind) {
    case "tool": {
      if (!index.byTool.has(rule.tool)) index.byTool.set(rule.tool, compiled);
      const family = FAMILY_OF_TOOL[rule.tool];
      if (family && !index.byFamily.has(family)) index.byFamily.set(family, compiled);
      break;
    }
    case "command":
      if (compiled.firstWord === undefined) index.commandsAnyName.push(compiled);
      else push(index.commandsByName, compiled.firstWord, compiled);
      break;
    case "path":
      (rule.tool === "Read" ? index.readPaths : index.writePaths).push(compiled);
      break;
    case "domain":
      if (rule.domain.startsWith("*.")) index.domainWildcards.push(compiled);
      else if (!index.domains.has(rule.domain)) index.domains.set(rule.domain, compiled);
      break;
    case "mcp":
      push(index.mcpByServer, rule.server, compiled);
      break;
    case "agent":
      if (!index.agents.has(rule.agentType)) index.agents.set(rule.agentType, compiled);
      break;
    case "skill":
      if (!index.skills.has(rule.skill)) index.skills.set(rule.skill, compiled);
      break;
  }
}
