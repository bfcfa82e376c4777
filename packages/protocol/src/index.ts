/**
 * @z-engine/protocol: the shared language of Z Engine. Everything exported here is public
 * API; everything else is internal. Schemas (zod) and their inferred types share a name;
 * each schema is built on its first use (`lazily`), not at import.
 * No `node:` imports, so a browser host can use it.
 */

// Parsing: every parse function returns a typed value or a path-naming error, never throws.
export type { ParseError, ParseResult } from "./parse.js";
export { parseJsonWith, parseWith } from "./parse.js";

// Schemas built on first use
export {
  /**
   * A stand-in for the object (a zod schema) `build` returns, built on its first use; it
   * behaves as the object in every use but identity (`===`, registries keyed by the schema).
   * Build other schemas from the real object (`once`), hand out the stand-in.
   */
  lazily,
  /** `build` run on the first call only; later calls return its first result. */
  once,
} from "./lazy.js";

// Ids
export {
  AgentId,
  ApprovalId,
  CheckId,
  CheckRunId,
  CheckpointId,
  checkId,
  JobId,
  MessageId,
  newAgentId,
  newApprovalId,
  newCheckpointId,
  newCheckRunId,
  newId,
  newJobId,
  newMessageId,
  newPlanId,
  newQuestionId,
  newSessionId,
  newToolCallId,
  newTurnId,
  PlanId,
  QuestionId,
  SessionId,
  ToolCallId,
  TurnId,
} from "./ids.js";

// Model-facing types
export {
  ContentBlock,
  ImageBlock,
  Message,
  ModelMessage,
  RedactedThinkingBlock,
  Role,
  TextBlock,
  ThinkingBlock,
  ToolResultBlock,
  ToolResultContent,
  ToolUseBlock,
} from "./content.js";
export type { ModelClient, ProviderKind, StreamOptions } from "./model.js";
export { HOOK_EVENTS, type HookEventName } from "./hook-events.js";
export {
  CacheMark,
  EFFORT_LEVELS,
  Effort,
  isTerminalModelEvent,
  modelErrorKindForStatus,
  ModelError,
  ModelErrorKind,
  ModelEvent,
  ModelRequest,
  PROVIDER_KINDS,
  StopReason,
  SystemSection,
  ToolSpec,
} from "./model.js";
export { MessageAssembler } from "./assemble.js";
export { addUsage, emptyUsage, SpendSource, TokenUsage, Usage } from "./usage.js";

// Protected paths: the one list the policy and the sandbox both read
export { isProtectedPath, PROTECTED_PATHS } from "./protected-paths.js";

// The project-files door: how project-controlled files are read (host implements it)
export type {
  ProjectDirEntry,
  ProjectFileAdmission,
  ProjectFileAdmitted,
  ProjectFileReader,
  ProjectFileReadOptions,
  ProjectFileRefusal,
  ProjectFileRefused,
  ProjectFileText,
} from "./project-files.js";

// Artifacts
export type { ArtifactPutOptions, ArtifactSink } from "./artifact.js";
export { ArtifactRef } from "./artifact.js";

// Types that cross package lines
export {
  Badge,
  BadgeStatus,
  CheckDefinition,
  CheckKind,
  CheckRecord,
  TestCounts,
  VerificationMode,
} from "./check.js";
export { ToolDisplay } from "./display.js";
export {
  applyCompaction,
  applyToolResultClearing,
  clearedToolResultText,
  Compaction,
  /** What a compaction dropped and kept (ranges, artifacts, the task quoted verbatim). */
  CompactionLedger,
  ToolResultClearing,
} from "./working-set.js";

// Shared records
export {
  ApprovalDecision,
  CheckpointInfo,
  JobInfo,
  NoticeLevel,
  PERMISSION_MODES,
  PermissionMode,
  Plan,
  Question,
  QuestionAnswers,
  RewindRestore,
  TodoItem,
  TurnOutcome,
} from "./records.js";

// The decision layer: seams, modes, the trace and the payloads of its events
export {
  CompletionClaim,
  DecisionMode,
  DecisionRoute,
  DecisionSeam,
  DecisionTrace,
  Suggestion,
  SuggestionKind,
  TaskViewInfo,
  TurnTone,
  Urgency,
} from "./decisions.js";

// The LSP tool's queries
export { LSP_OPERATIONS, type LspOperation } from "./lsp.js";

// MCP server state (the `mcpServerUpdated` event)
export { McpServerStatus } from "./mcp.js";

// Commands and events
export type { EngineCommandType, StopAgentCommand } from "./commands.js";
export { EngineCommand, parseEngineCommand, parseEngineCommandJson } from "./commands.js";
export type { EngineEventOf, EngineEventType } from "./events.js";
/**
 * `lastingEvents`: the schemas of the events that change lasting state, by type, the one
 * declaration of each fact's fields (the store derives its log records from them).
 */
export {
  CompactionMarker,
  EngineEvent,
  EventEnvelope,
  lastingEvents,
  PROTOCOL_VERSION,
  parseEngineEvent,
  parseEventEnvelope,
  parseEventEnvelopeJson,
} from "./events.js";
export { engineCommandJsonSchema, eventEnvelopeJsonSchema } from "./json-schema.js";
export {
  parseApprovalDecision,
  parseBadge,
  parseCheckDefinition,
  parseCheckRecord,
  parseCompaction,
  parseContentBlock,
  parseMessage,
  parseModelEvent,
  parseModelRequest,
  parseToolDisplay,
  parseToolResultClearing,
} from "./parsers.js";

// Sample payloads: one valid example of every command and event.
export { COMMAND_EXAMPLES, EVENT_EXAMPLES } from "./examples.js";
