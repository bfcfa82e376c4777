/**
 * @z-engine/agent-sdk: the Agent SDK's TypeScript API (`query()`, `tool()`,
 * `createSdkMcpServer()`) over Z Engine, in process. Everything exported here is public API.
 */

// The query
/**
 * `query({ prompt, options })`: an async generator of SDK messages with its controls. See
 * the function's JSDoc for ordering, failures and cancellation.
 */
export { query } from "./query.js";
/** Thrown by the generator after `abortController` aborts (`code` `agentSdk.aborted`). */
export { AbortError } from "./errors.js";

// In-process MCP tools
/**
 * `tool(name, description, zodShape, handler)` and `createSdkMcpServer({ name, tools })`:
 * tools that run in the host's process, offered as `mcp__<server>__<tool>` and asked for
 * through the engine's one permission gate. A handler's throw becomes an error result.
 */
export { createSdkMcpServer, tool } from "./sdk-tools.js";
export type { CallToolResult, SdkMcpServer, SdkMcpToolDefinition } from "./sdk-tools.js";

// Shapes
/** The hook shapes (`options.hooks`). */
export type {
  AsyncHookJSONOutput,
  BaseHookInput,
  HookCallback,
  HookCallbackMatcher,
  HookEvent,
  HookInput,
  HookJSONOutput,
  OtherHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
  SyncHookJSONOutput,
  UserPromptSubmitHookInput,
} from "./hook-types.js";
export type {
  AgentDefinition,
  CanUseTool,
  McpHttpServerConfig,
  McpServerConfig,
  McpServerStatus,
  McpSSEServerConfig,
  McpStdioServerConfig,
  Options,
  OutputFormat,
  PermissionMode,
  PermissionResult,
  PermissionRuleValue,
  PermissionUpdate,
  Query,
  SDKAssistantMessage,
  SDKContentBlock,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKPermissionDenial,
  SDKResultMessage,
  SDKSystemMessage,
  SDKToolResultBlock,
  SDKUsage,
  SDKUserMessage,
  SlashCommand,
  SystemPromptPreset,
} from "./types.js";
