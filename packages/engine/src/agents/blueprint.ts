import type { PermissionMode } from "@z-engine/protocol";
import type { AgentDefinition } from "@z-engine/prompts";
import { AGENT_TOOL_ALIASES } from "../definitions/tool-aliases.js";
import type { AgentSource } from "./discover.js";

/**
 * How deep agents nest: the main agent is depth 0; an agent at this depth gets no Agent
 * tool (so a subagent may start one more level, and that one none).
 */
export const MAX_AGENT_DEPTH = 2;

/** Tools a subagent never gets: it cannot talk to the user. */
const NEVER_FOR_SUBAGENTS = new Set(["AskUserQuestion", "ExitPlanMode"]);
/** Tools that start or apply agents, removed at the depth limit. */
const AGENT_TOOLS = new Set(["Agent", "ApplyAgentChanges"]);

/** `mcp__<server>` alone: every tool of that server (Claude Code's rule form). */
const MCP_SERVER_ENTRY = /^mcp__((?:(?!__)[^*])+)$/;

/**
 * Whether a definition's tool entry names `tool`: an exact name (`Read`, `mcp__jira__search`),
 * a rule-like entry by its tool (`Bash(git diff:*)`), Claude Code's `Task` for Agent, `*`, a
 * wildcard (`mcp__jira__*`), or a server alone (`mcp__jira`: each of its tools).
 */
export function toolEntryMatches(entry: string, tool: string): boolean {
  const base = entry.replace(/\(.*\)$/s, "").trim();
  const name = AGENT_TOOL_ALIASES[base] ?? base;
  if (name === "*") return true;
  if (MCP_SERVER_ENTRY.test(name)) return tool === name || tool.startsWith(`${name}__`);
  if (!name.includes("*")) return name === tool;
  const pattern = name.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${pattern.join(".*")}$`).test(tool);
}

/**
 * The names of the tools a subagent gets from its parent's: those its definition lists
 * (all when it lists none or `*`), minus its `disallowedTools`, minus AskUserQuestion and
 * ExitPlanMode always, minus Agent and ApplyAgentChanges at `maxDepth` (`[agents] max_depth`,
 * default {@link MAX_AGENT_DEPTH}). Order follows the parent's list. Pure.
 */
export function subagentToolNames(
  parentTools: readonly string[],
  definition: Pick<AgentDefinition, "tools" | "disallowedTools">,
  depth: number,
  maxDepth: number = MAX_AGENT_DEPTH,
): string[] {
  const listed = definition.tools;
  return parentTools.filter((tool) => {
    if (NEVER_FOR_SUBAGENTS.has(tool)) return false;
    if (AGENT_TOOLS.has(tool) && depth >= maxDepth) return false;
    if (definition.disallowedTools.some((entry) => toolEntryMatches(entry, tool))) return false;
    return listed === undefined || listed.some((entry) => toolEntryMatches(entry, tool));
  });
}

/** The MCP hub's own tools: resources (any server's) and loading deferred schemas. */
const MCP_RESOURCE_TOOLS = new Set(["ListMcpResources", "ReadMcpResource"]);
const LOAD_MCP_TOOLS = "LoadMcpTools";

/**
 * Which of the session's MCP tools a subagent gets, or `null` for none. A server tool
 * (`mcp__<server>__<tool>`) passes when the definition lists no tools (or `*`) or an entry
 * names it (exact, `mcp__<server>__*`, `mcp__<server>`), and no `disallowedTools` entry
 * does. ListMcpResources and ReadMcpResource read every server's resources, so they pass
 * only when listed by name (or all tools are). LoadMcpTools passes whenever some server
 * tool may. Pure.
 */
export function subagentMcpFilter(
  definition: Pick<AgentDefinition, "tools" | "disallowedTools">,
): ((tool: string) => boolean) | null {
  const listed = definition.tools;
  const entries = listed ?? ["*"];
  if (
    !entries.some(
      (e) => e.trim().startsWith("mcp__") || e.trim() === "*" || MCP_RESOURCE_TOOLS.has(e.trim()),
    )
  )
    return null;
  const denied = (tool: string) =>
    definition.disallowedTools.some((e) => toolEntryMatches(e, tool));
  const mayServerTools = entries.some((e) => e.trim() === "*" || e.trim().startsWith("mcp__"));
  return (tool) => {
    if (denied(tool)) return false;
    if (tool === LOAD_MCP_TOOLS) return mayServerTools;
    return entries.some((e) => toolEntryMatches(e, tool));
  };
}

/** How much a mode lets run without asking: plan < ask < acceptEdits < bypass. */
const LOOSENESS: Readonly<Record<PermissionMode, number>> = {
  plan: 0,
  ask: 1,
  acceptEdits: 2,
  bypass: 3,
};

/**
 * A subagent's permission mode: its definition's, else its caller's. A project's agent
 * (untrusted code) never runs looser than its caller: a looser mode falls back to the
 * caller's. A session in bypass overrides every agent's mode. Pure.
 */
export function childMode(
  definition: Pick<AgentDefinition, "permissionMode">,
  source: AgentSource,
  callerMode: PermissionMode,
  sessionMode: PermissionMode,
): PermissionMode {
  if (sessionMode === "bypass") return "bypass";
  const wanted = definition.permissionMode ?? callerMode;
  if (source === "project" && LOOSENESS[wanted] > LOOSENESS[callerMode]) return callerMode;
  return wanted;
}
