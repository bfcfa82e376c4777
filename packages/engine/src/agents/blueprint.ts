import type { PermissionMode } from "@z-engine/protocol";
import type { AgentDefinition } from "@z-engine/prompts";
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

/** Claude Code's name for the Agent tool, accepted in definitions, rules and transcripts. */
export const AGENT_TOOL_ALIASES: Readonly<Record<string, string>> = { Task: "Agent" };

/** Whether a definition's tool entry (`Read`, `Bash(git diff:*)`, `mcp__jira__*`, `Task`) names `tool`. */
export function toolEntryMatches(entry: string, tool: string): boolean {
  const base = entry.replace(/\(.*\)$/s, "").trim();
  const name = AGENT_TOOL_ALIASES[base] ?? base;
  if (name === "*") return true;
  if (!name.includes("*")) return name === tool;
  const pattern = name.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${pattern.join(".*")}$`).test(tool);
}

/**
 * The names of the tools a subagent gets from its parent's: those its definition lists
 * (all when it lists none or `*`), minus its `disallowedTools`, minus AskUserQuestion and
 * ExitPlanMode always, minus Agent and ApplyAgentChanges at {@link MAX_AGENT_DEPTH}.
 * Order follows the parent's list. Pure.
 */
export function subagentToolNames(
  parentTools: readonly string[],
  definition: Pick<AgentDefinition, "tools" | "disallowedTools">,
  depth: number,
): string[] {
  const listed = definition.tools;
  return parentTools.filter((tool) => {
    if (NEVER_FOR_SUBAGENTS.has(tool)) return false;
    if (AGENT_TOOLS.has(tool) && depth >= MAX_AGENT_DEPTH) return false;
    if (definition.disallowedTools.some((entry) => toolEntryMatches(entry, tool))) return false;
    return listed === undefined || listed.some((entry) => toolEntryMatches(entry, tool));
  });
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
