/**
 * @z-engine/engine: sessions, turns, the agent loop, the tool batch, the stop boundary,
 * hooks, checkpoints and rewind. Everything exported here is public API.
 */

// The engine and its sessions
export type { Engine, SessionHandle, SessionOptions } from "./engine.js";
export { createEngine } from "./engine.js";
export type { ClientFactory, ClientRequest, EngineOptions, ProviderOptions } from "./options.js";
export type { SessionOverrides } from "./settings/session-config.js";
export type { Submission, TurnSummary } from "./run/turn.js";
export type { ModelCatalog, ModelInfo } from "./session/core.js";
export type { RepoMapStatus } from "./repo-map/session-map.js";

// Slash commands (runCommand): the catalog a UI completes `/` from, and what a run did
/** A catalog entry for `/` completion: name, kind, description, argument hint, scope. */
export type { SlashCommandInfo, SlashCommandKind } from "./commands/catalog.js";
/** What `SessionHandle.command` did: `output` (markdown), `notice`, or a prompt command's `turn`. */
export type { CommandResult } from "./commands/result.js";
/** `/name args` as a command (a name without `/`), or undefined for any other prompt. Never throws. */
export { parseSlashPrompt } from "./commands/run.js";
/** Claude Code's argument rule for templates (`$ARGUMENTS`, `$1`..`$9`); see the README. Never throws. */
export { shellWords, substituteArguments } from "./commands/arguments.js";
// A stored session told as events (for a UI that rebuilds its view on reload)
export type { SessionHistory } from "./history/session-history.js";
export { historyEvents, readSessionHistory } from "./history/session-history.js";

// MCP
/** A session's MCP servers for hosts and the command catalog; prompts as `/mcp__<server>__<prompt>`. */
export type { McpPromptCommand, McpPromptFetch, SessionMcp } from "./mcp/prompts.js";
export { promptArguments } from "./mcp/prompts.js";
export { DEFER_ABOVE } from "./mcp/catalog.js";
export type { McpCheck } from "./mcp/check.js";
/** What `Engine.mcpLogin` and `SessionMcp.login` resolve with (tools listed, pages opened). */
export type { McpLoginResult } from "@z-engine/integrations";
/** An MCP elicitation as the question card a host renders, and its answers as the result. */
export { elicitationAnswer, elicitationQuestion } from "./mcp/elicit.js";
/**
 * A trusted project's servers that replace the user's of the same name (their user-level
 * allow rules do not carry over), and the trust report's line naming them.
 */
export { replacedMcpServers, replacedServersText } from "./mcp/replaced.js";

// Hooks (Claude Code's protocol)
export type { HookDefinition, HookEventName, HookOutcome, HookTable } from "./hooks/types.js";
export { HOOK_EVENTS } from "./hooks/types.js";
export type { HookSessionInfo } from "./hooks/runner.js";
export { HookRunner } from "./hooks/runner.js";

// Defaults a host may reuse
export { catalogView, DEFAULT_MODEL_INFO, llmClientFactory } from "./settings/models.js";
export { CANCELLED_RESULT } from "./batch/execute.js";
export { HEADLESS_DENIAL } from "./batch/approvals.js";
export { MAX_STOP_HOOK_CONTINUATIONS } from "./run/stop.js";

// Printing events as the CLI's text output does
export {
  badgeLabel,
  formatCheck,
  formatCost,
  formatEvent,
  formatSeconds,
  formatTokens,
} from "./format/describe.js";

// Secrets kept from child processes and redacted from records and events
export type { Redactor } from "./util/secrets.js";
export {
  createRedactor,
  isSecretVariable,
  REDACTED,
  SECRET_VARIABLES,
  scrubbedEnvironment,
  secretValues,
} from "./util/secrets.js";

// What a host shows when it opens a stored session (its conversation and rewind targets)
export type { HistoryMessage, SessionView } from "./queries/history.js";
export { readSessionView } from "./queries/history.js";
