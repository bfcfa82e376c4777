// The public API of @z-engine/integrations. Everything exported here is public.

/** How a stdio MCP server or a language server is started: a spawner the caller injects. */
export type { ChildSpawner, ChildSpawnRequest, SpawnedChild } from "./child-spawner.js";

// MCP
/**
 * Server specs (OAuth settings included), states, listed tools/resources/templates/prompts,
 * call results, the client's hooks (elicitation, roots, sampling) and McpError.
 */
export type {
  McpCallOptions,
  McpCallResult,
  McpClientHooks,
  McpElicitation,
  McpElicitationResult,
  McpOAuthSettings,
  McpPromptInfo,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpRoot,
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
  MAX_INSTRUCTIONS_LENGTH,
  McpConnection,
  WAIT_NOTICE_MS,
} from "./mcp/connection.js";
/** OAuth for a connection: the token store, and a login when a person is at hand. */
export type { McpAuthOptions } from "./mcp/open-client.js";
export type { McpLoginOptions } from "./mcp/oauth/login-session.js";
/** OAuth tokens and client registrations per server and URL, in the data folder (0600). */
export { McpTokenStore, type StoredAuth } from "./mcp/oauth/store.js";
/** `zeng mcp login|logout`: the browser login of a remote server, forgetting it, whether one is stored. */
export {
  hasMcpLogin,
  LOGIN_TIMEOUT_MS,
  loginMcpServer,
  logoutMcpServer,
  type McpLoginRequest,
  type McpLoginResult,
} from "./mcp/oauth/login.js";
/** The loopback listener a browser returns to after authorizing. */
export { type Loopback, startLoopback } from "./mcp/oauth/loopback.js";
/** A fetched prompt as text messages. */
export type { PromptText } from "./mcp/prompt-text.js";
/** `${VAR}` / `${VAR:-default}` expansion as `.mcp.json` uses it. */
export type { Expanded, ExpandEnv } from "./mcp/expand.js";
export type { Withheld } from "./mcp/expand.js";
export { expandVars, referencedVariables, withoutVariables } from "./mcp/expand.js";
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
