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

// MCP
/** A session's MCP servers for hosts and the command catalog; prompts as `/mcp__<server>__<prompt>`. */
export type { McpPromptCommand, McpPromptFetch, SessionMcp } from "./mcp/prompts.js";
export { promptArguments } from "./mcp/prompts.js";
export { DEFER_ABOVE } from "./mcp/catalog.js";
export type { McpCheck } from "./mcp/check.js";

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
export type { HistoryMessage, SessionHistory } from "./queries/history.js";
export { readSessionHistory } from "./queries/history.js";
