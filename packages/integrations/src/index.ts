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
} from "./mcp/connection.js";
/** A fetched prompt as text messages. */
export type { PromptText } from "./mcp/prompt-text.js";
/** `${VAR}` / `${VAR:-default}` expansion as `.mcp.json` uses it. */
export type { Expanded, ExpandEnv } from "./mcp/expand.js";
export { expandVars } from "./mcp/expand.js";
/** Tool names: `mcp__<server>__<tool>`, other characters become `_`. */
export { mcpToolName, sanitizeMcpName } from "./mcp/naming.js";
/** MCP results as content blocks. */
export { convertCallResult } from "./mcp/convert.js";
