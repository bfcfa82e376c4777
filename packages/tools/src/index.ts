/**
 * @z-engine/tools: the Tool contract, ToolCtx, the ports (interfaces only), the file
 * tracker, path locks and the built-in tools. Everything exported here is public API.
 */

// The contract
/** A tool, its definition for {@link defineTool}, and its JSON-Schema spec for the model. */
export type { Tool, ToolDefinition } from "./tool.js";
export { defineTool, toolSpec } from "./tool.js";
/** What a call produced; helpers for text and error results. */
export type { OutputExtras, ToolOutput } from "./tool-output.js";
export { errorOutput, textOutput } from "./tool-output.js";
/**
 * Running a model call: validate first, never throw. The raw forms (`toolActions`, `runTool`)
 * parse the input themselves; the parsed forms (`parsedToolActions`, `runParsedTool`) take the
 * value `parseToolInput` gave, so a gate parses once and carries it to the run.
 */
export type { ToolActionsResult, ToolInputResult } from "./run-tool.js";
export {
  parsedToolActions,
  parseToolInput,
  runParsedTool,
  runTool,
  toolActions,
} from "./run-tool.js";

// The per-call context and the ports
export type { SearchOptions, ToolCtx, ToolLimits, WebOptions } from "./ctx.js";
export { DEFAULT_TOOL_LIMITS } from "./ctx.js";
export type {
  AgentPort,
  AgentSpawnRequest,
  CheckPort,
  InteractionPort,
  JobPort,
  LspPort,
  LspQuery,
  McpCallOptions,
  McpPort,
  PlanReview,
  PortName,
  SideModelCaller,
  SideModelPort,
  SkillPort,
  ToolPorts,
} from "./ports.js";

/**
 * A host's editor as the file tools' text files (`ToolPorts.editor`, an ACP client's fs), and
 * the tracker's stamp of a text the editor held (its SHA-256 digest).
 */
export type { EditorFiles } from "./editor-files.js";
export { editorStamp } from "./editor-files.js";

// Read-before-edit and path locks
export type { EditCheck, FileStamp, FileTracker } from "./file-tracker.js";
export { createFileTracker, stampOf } from "./file-tracker.js";
export type { PathLocks } from "./path-locks.js";
export { createPathLocks } from "./path-locks.js";

// Helpers a host's own tools may use
export { absolutePath, displayPath, linkPath, realPath } from "./paths.js";
export { OTHER_HARD_LINKS } from "./file-target.js";
export type { SpilledText } from "./output-spill.js";
export { spillIfLong } from "./output-spill.js";
export type { FileDiff } from "./diff.js";
export { unifiedDiff } from "./diff.js";
export { findRipgrep } from "./search/ripgrep.js";

// The built-in tools
export { builtinTools } from "./builtin/builtins.js";
export { agentTool, applyAgentChangesTool, DEFAULT_AGENT_TYPE } from "./builtin/agent.js";
export { bashTool } from "./builtin/bash.js";
export { editTool } from "./builtin/edit.js";
export { globTool } from "./builtin/glob.js";
export { grepTool } from "./builtin/grep.js";
export { askUserQuestionTool, exitPlanModeTool, todoWriteTool } from "./builtin/interaction.js";
export { jobKillTool, jobOutputTool } from "./builtin/jobs.js";
export { lspTool } from "./builtin/lsp.js";

// MCP
/** The tool standing for one MCP server tool (`mcp__<server>__<tool>`), and its definition. */
export type { McpToolDefinition } from "./builtin/mcp-tool.js";
export { createMcpTool } from "./builtin/mcp-tool.js";
/** ListMcpResources, ReadMcpResource and LoadMcpTools: the engine's MCP hub offers them (not in builtinTools). */
export {
  listMcpResourcesTool,
  loadMcpToolsTool,
  readMcpResourceTool,
} from "./builtin/mcp-resources.js";
export { multiEditTool } from "./builtin/multi-edit.js";
export { readTool } from "./builtin/read.js";
/** Skill: loads a skill through the SkillPort (offered only where the session has skills). */
export { skillTool } from "./builtin/skill.js";
export { verifyTool } from "./builtin/verify.js";
export { webFetchTool } from "./builtin/web-fetch.js";
export { webSearchTool } from "./builtin/web-search.js";
export { writeTool } from "./builtin/write.js";
