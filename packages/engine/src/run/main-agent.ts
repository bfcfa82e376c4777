import type { SessionCore } from "../core/session-core.js";
import { type AgentDefinition, type AgentRun, transcriptSink } from "../core/agent-context.js";

/** What the main agent's definition reads of its session, each round. */
export type MainAgentCore = Pick<
  SessionCore,
  "system" | "repoMap" | "tools" | "model" | "effort" | "mode" | "config"
>;

/** What the main agent's run takes of its session: its definition's parts, the log and the session's own trackers. */
export type MainRunCore = MainAgentCore &
  Pick<
    SessionCore,
    | "journal"
    | "workingSet"
    | "projectRoot"
    | "reminders"
    | "instructions"
    | "files"
    | "shellSession"
  >;

/**
 * The main agent of a session: the session's system sections (the repo map is not one: it
 * joins the conversation as a reminder), its offered tools plus MCP tools, and the model, effort, mode and `max_turns` the
 * session has at each round.
 */
export function mainAgent(core: MainAgentCore): AgentDefinition {
  return {
    agentType: "main",
    system: () => core.system,
    tools: core.tools,
    mcpTools: true,
    model: () => core.model,
    effort: () => core.effort,
    mode: () => core.mode,
    maxTurns: () => core.config.maxTurns,
  };
}

/**
 * The main agent's run in a turn: depth 0, the session log as its transcript, the project as
 * its root, the turn's signal, and the session's own reminders, instruction tracking, file
 * tracker and shell.
 */
export function mainAgentRun(core: MainRunCore, signal: AbortSignal): AgentRun {
  return {
    agent: mainAgent(core),
    transcript: transcriptSink(core.journal, () => core.workingSet()),
    root: core.projectRoot,
    depth: 0,
    signal,
    reminders: core.reminders,
    instructions: core.instructions,
    files: core.files,
    shellSession: core.shellSession,
  };
}
