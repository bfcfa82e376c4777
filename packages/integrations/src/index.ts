// The public API of @z-engine/integrations. Everything exported here is public.

// MCP
/** Server specs, states, listed tools/resources/prompts, call results and McpError. */
export type {
  McpCallOptions,
  McpCallResult,
  McpPromptInfo,
  McpResourceInfo,
  McpServerSpec,
  McpServerState,
  McpToolInfo,
  McpTransportKind,
} from "./mcp/types.js";
export { McpError } from "./mcp/types.js";
/** One server's connection: start, tools, calls (reconnect once), resources, prompts, close. */
export type { McpConnectionOptions } from "./mcp/connection.js";
export {
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_START_TIMEOUT_MS,
  McpConnection,
  WAIT_NOTICE_MS,
} from "./mcp/connection.js";
/** A fetched prompt as text messages. */
export type { PromptText } from "./mcp/prompt-text.js";
/** `${VAR}` / `${VAR:-default}` expansion as `.mcp.json` uses it. */
export type { Expanded, ExpandEnv } from "./mcp/expand.js";
export { expandVars } from "./mcp/expand.js";
/**
 * Tool names: `mcp__<server>__<tool>`, other characters become `_`; unique names of at most
 * 64 characters per server, and the server names rules could not tell apart.
 */
export type { AssignedNames, ToolRename } from "./mcp/naming.js";
export {
  assignToolNames,
  MAX_TOOL_NAME_LENGTH,
  mcpToolName,
  sanitizeMcpName,
  serverNameProblem,
} from "./mcp/naming.js";
/** Server text (descriptions, instructions) without hidden characters, cut to a length. */
export { cleanServerText, MAX_DESCRIPTION_LENGTH } from "./mcp/clean-text.js";
/** MCP results as content blocks (images capped per result). */
export { convertCallResult, MAX_IMAGES_PER_RESULT } from "./mcp/convert.js";

// LSP: the language-server client manager (lsp/). vscode-languageserver-protocol is loaded
// only when the first server starts.

/** After a write: fresh error lines for the file, bounded wait; see the function's contract. */
export {
  AFTER_WRITE_WAIT_MS,
  errorsAfterWrite,
  MAX_AFTER_WRITE_ERRORS,
} from "./lsp/after-write.js";
/** An operational failure of a language server (`notInstalled`, `startFailed`, `crashed`, `timeout`, `requestFailed`). */
export { LspError, type LspErrorCode } from "./lsp/errors.js";
/** The servers of one project: routing, lazy start, remembered failures, restarts, stop. */
export {
  type LiveServer,
  LspManager,
  type LspManagerOptions,
  type LspServerStatus,
  type Route,
} from "./lsp/manager.js";
/** The queries the LSP tool makes and their text answers. */
export type { LspAnswer, LspRequest } from "./lsp/operations.js";
/** Answers one query, starting the file's server when needed. Never rejects. */
export { queryLsp } from "./lsp/query.js";
/** Built-in server specs and `[lsp.servers]` entries. */
export {
  BUILTIN_LSP_SERVERS,
  type ConfiguredLspServer,
  type LspServerSpec,
  lspServerSpecs,
} from "./lsp/specs.js";
