/**
 * @z-engine/engine: sessions, turns, the agent loop, the tool batch, the stop boundary,
 * hooks, checkpoints and rewind. Everything exported here is public API.
 */

// The engine and its sessions
export type { Engine, SessionHandle, SessionOptions } from "./engine.js";
export { createEngine } from "./engine.js";
export type {
  ClientFactory,
  ClientRequest,
  EngineOptions,
  ProviderOptions,
} from "./settings/engine-options.js";
/**
 * The logger a host gives `createEngine({ logger })`: pino's `child` and level methods, so a
 * pino logger fits. The engine logs nothing without one; each line it writes carries the
 * session id (and the turn id within a turn) and passes the secret screen first.
 */
export type { EngineLogger, LogFields, LogMethod } from "./telemetry/logger.js";
/**
 * Trace options (`createEngine({ telemetry })`). Spans and metrics go through
 * `@opentelemetry/api`'s global providers under the scope `INSTRUMENTATION_SCOPE`: the host's
 * SDK records them; without one they cost nothing. Content (prompts, tool inputs and
 * results) is captured only when `captureContent` is true.
 */
export type { TelemetryOptions } from "./telemetry/session-telemetry.js";
/** The instrumentation scope name of the engine's tracer and meter. */
export { INSTRUMENTATION_SCOPE } from "./telemetry/session-telemetry.js";
export type { HostAgent, SessionOverrides } from "./settings/session-config.js";
export type { Submission, TurnSummary } from "./run/turn.js";
export type { ModelCatalog, ModelInfo } from "./settings/model-catalog.js";
/** What `Engine.providerKey(folder)` finds: whether a key is needed and found, and where it is looked up. */
export type { ProviderKeyStatus } from "./queries/provider-key-status.js";
export type { RepoMapStatus } from "./repo-map/map-status.js";
/**
 * The project's files (for `@` completion, a file picker): git's tracked and untracked
 * files through host's git door (read-only, no program the project names runs), else a
 * walk; `.z-engine/` left out; sorted, at most 50,000. Never rejects.
 */
export { listProjectFiles } from "./repo-map/project-files.js";

// Structured output (`--json-schema`, the Agent SDK's `outputFormat`)
/** How a structured run ended: the summary of all attempts, the value or the last error. */
export type {
  JsonSchemaObject,
  StructuredOptions,
  StructuredRun,
} from "./structured/structured-output.js";
/**
 * Runs a prompt whose final answer must be JSON matching a JSON Schema, sending a mismatch
 * back with its error (up to `maxAttempts` turns). Throws StructuredOutputError
 * (`structuredOutput.badSchema`) before any turn for a schema that cannot be read.
 */
export { runStructured, StructuredOutputError } from "./structured/structured-output.js";

// Keys (`zeng login`)
/** Where a key was stored: the provider host and auth.json. */
export type { StoredKey } from "./settings/provider-key.js";
/**
 * Stores a key in auth.json (0600) for the provider the user's settings name. Throws
 * ProviderKeyError (`providerKey.badProvider`) or llm's LlmError (`authFile`).
 */
export { ProviderKeyError, storeProviderKey } from "./settings/provider-key.js";

// `zeng doctor`
/** One checked thing (`key`, `provider`, `git`, `sandbox`, `ripgrep`, `trust`, `settings`) and its state. */
export type { DiagnoseOptions, Diagnosis } from "./doctor/diagnose.js";
/** Checks what a run of a project folder needs; never rejects (failures are `fail` lines). */
export { diagnose } from "./doctor/diagnose.js";

/**
 * What `SessionOptions.shell` and `.editor` take (host's shell contract, its `CommandResult`
 * as `ShellCommandResult`; tools' editor port), so that a host hands in its own terminals and
 * editor without importing those packages.
 */
export type {
  BackgroundProcess,
  CommandRequest,
  CommandResult as ShellCommandResult,
  Shell,
} from "@z-engine/host";
export type { EditorFiles } from "@z-engine/tools";

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
export type {
  HookCallback,
  HookDefinition,
  HookEventName,
  HookOutcome,
  HookTable,
} from "./hooks/types.js";
/**
 * Spans of hook runs (`HookSessionInfo.spans`): `start` names one run (event, matcher,
 * command, kind, and the turn, agent and tool call that caused it) and returns undefined when
 * nothing records; the span's `end` takes its outcome, once.
 */
export type {
  HookParent,
  HookRunOutcome,
  HookSpan,
  HookSpanEnd,
  HookSpanStart,
  HookSpans,
} from "./hooks/types.js";
export { HOOK_EVENTS } from "./hooks/types.js";
export type { HookSessionInfo } from "./hooks/runner.js";
export { HookRunner } from "./hooks/runner.js";

// Defaults a host may reuse
export { catalogView, DEFAULT_MODEL_INFO, llmClientFactory } from "./settings/models.js";
export { CANCELLED_RESULT } from "./batch/execute.js";
export { HEADLESS_DENIAL } from "./core/approvals.js";
export { MAX_STOP_HOOK_CONTINUATIONS } from "./run/stop.js";

// Claude Code's message shapes (the CLI's Claude-shaped output, @z-engine/agent-sdk)
/** The shapes of `claude -p`'s stream-json lines and the Agent SDK's messages. */
export type {
  ClaudeAssistantMessage,
  ClaudeContentBlock,
  ClaudePermissionDenial,
  ClaudeResultFacts,
  ClaudeResultMessage,
  ClaudeResultSubtype,
  ClaudeStreamEvent,
  ClaudeToolResultMessage,
  ClaudeUsage,
} from "./format/claude-messages.js";
/**
 * Builders of those shapes from events (each undefined for an event of another type; a
 * fresh `uuid` each), the result from a turn's facts, and a user message's text. Never throw.
 */
export {
  claudeAssistantMessage,
  claudeResultMessage,
  claudeStreamEvent,
  claudeToolResultMessage,
  claudeUsage,
  claudeUserText,
} from "./format/claude-messages.js";

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
  encodedForms,
  isProviderKeyVariable,
  isSecretVariable,
  REDACTED,
  SECRET_VARIABLES,
  scrubbedEnvironment,
  secretValues,
} from "./util/secrets.js";
/**
 * The child-process door (host's): a host that starts a program of its own (a browser for a
 * URL) starts it here, from an environment without secrets, in a folder it names the reason
 * for. See host's README.
 */
export type {
  ChildEnvironment,
  ChildFolder,
  ChildFolderReason,
  ChildRequest,
} from "@z-engine/host";
export { childEnvironment, spawnChild } from "@z-engine/host";
/**
 * Takes secret variables out of the process for good, the initial environment block that
 * `/proc/<pid>/environ` shows included (Linux); host's contract. The CLI calls it at start.
 */
export type { EnvironErasure } from "@z-engine/host";
export { eraseInitialEnvironment } from "@z-engine/host";
/** `zeng trust`'s line naming the variables a project's MCP servers would be handed. Pure. */
export { mcpVariablesReport } from "./session/trust.js";

// What a host shows when it opens a stored session (its conversation and rewind targets)
export type { HistoryMessage, SessionView } from "./queries/history.js";
export { readSessionView } from "./queries/history.js";

// Queries for a host's screens (the web UI's): each takes a handle this engine gave out and
// throws a `QueryError` (code `unknownHandle`) for any other object.
/** An operational failure of a query: `unknownHandle` for a handle this engine did not make. */
export { QueryError } from "./queries/registry.js";
/** The session header: folder, branch, mode, model, effort, context used and left, the last badge. */
export type { SessionStatus } from "./queries/status.js";
export type { ContextUsage } from "./queries/context-usage.js";
export { currentBadge, sessionStatus } from "./queries/status.js";
/** The tool names a session offers (built-in, host, MCP), as the Agent SDK's init message lists them. */
export { sessionToolNames } from "./queries/tools.js";
/** The files changed since a checkpoint, with line diffs; revert a file or some of its hunks. */
export type { ChangedFile, FileChangeStatus, SessionChanges } from "./queries/changes.js";
export { MAX_CHANGED_FILES, sessionChanges } from "./queries/changes.js";
export type { RevertOutcome, RevertRequest } from "./queries/revert.js";
export { revertChange } from "./queries/revert.js";
export type { DiffHunk, DiffLine, TextDiff } from "./queries/line-diff.js";
export { diffTexts, revertHunks } from "./queries/line-diff.js";
/** Worktree agents' pending changes for the user's Apply or Discard. */
export type { AgentChangesOutcome, PendingAgentChanges } from "./queries/worktree-changes.js";
export { pendingAgentChanges, resolveAgentChanges } from "./queries/worktree-changes.js";
/** Subagents (status, spend, transcript, stop one) and background jobs' output. */
export type {
  AgentSummary,
  JobOutputView,
  SessionAgentsReport,
  StopAgentOutcome,
} from "./queries/agents.js";
export { agentHistory, jobOutput, sessionAgentList, stopAgent } from "./queries/agents.js";
/** What the model sees now: sections, instruction files, skills, tools, repo map, MCP, compactions. */
export type { CompactionSummary } from "./history/compactions.js";
export type { ContextPart, ContextReport } from "./queries/context.js";
export { contextReport } from "./queries/context.js";
/** The instruction files of a session (`/memory` in a terminal UI): paths, kinds, whether there. */
export type { MemoryFile, MemoryFiles } from "./commands/memory-files.js";
export { instructionFiles, reloadInstructions } from "./queries/memory.js";
/** Settings with their origins, permission rules (edit them), the trust report. */
export type {
  RuleEdit,
  RuleEditOutcome,
  RuleView,
  SettingsReport,
  TrustReport,
} from "./queries/settings.js";
export { editPermissionRule, settingsReport, trustReport } from "./queries/settings.js";
/** The models a session's picker offers (settings, built-in families, the cached catalog). */
export type { ModelChoice } from "./queries/models.js";
export { modelChoices } from "./queries/models.js";
/** Whether a folder's settings lead to a provider and a key, without a session or a request. */
export type { ProviderKeyReport } from "./queries/provider-key.js";
export { checkProviderKey } from "./queries/provider-key.js";
// Where the provider key comes from (a host's welcome line)
export type { KeySource } from "./queries/key-source.js";
/** The key source for the settings' provider: a variable's name, `auth.json`, or none. Never rejects. */
export { keySource } from "./queries/key-source.js";
