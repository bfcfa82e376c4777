// The Agent SDK's public shapes (its documented TypeScript API), as far as zeng implements them.
import type {
  ClaudeAssistantMessage,
  ClaudeContentBlock,
  ClaudePermissionDenial,
  ClaudeResultMessage,
  ClaudeStreamEvent,
  ClaudeUsage,
} from "@z-engine/engine";
import type { HookCallbackMatcher, HookEvent } from "./hook-types.js";
import type { SdkMcpServer } from "./sdk-tools.js";

/** Claude Code's permission modes (`auto` is not offered: zeng has no classifier mode). */
export type PermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan" | "dontAsk";

/** A permission rule as the SDK spells it: a tool name and an optional rule content. */
export interface PermissionRuleValue {
  toolName: string;
  ruleContent?: string;
}

/** A permission update a `canUseTool` answer may carry; only `addRules` with `allow` applies. */
export type PermissionUpdate =
  | {
      type: "addRules" | "replaceRules" | "removeRules";
      rules: PermissionRuleValue[];
      behavior: "allow" | "deny" | "ask";
      destination: "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";
    }
  | {
      type: "setMode";
      mode: PermissionMode;
      destination: "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";
    }
  | {
      type: "addDirectories" | "removeDirectories";
      directories: string[];
      destination: "userSettings" | "projectSettings" | "localSettings" | "session" | "cliArg";
    };

/** What `canUseTool` answers. */
export type PermissionResult =
  | {
      behavior: "allow";
      updatedInput?: Record<string, unknown>;
      updatedPermissions?: PermissionUpdate[];
      toolUseID?: string;
    }
  | { behavior: "deny"; message: string; interrupt?: boolean; toolUseID?: string };

/** The host's permission callback, asked for each call the rules and mode leave open. */
export type CanUseTool = (
  toolName: string,
  input: Record<string, unknown>,
  options: {
    signal: AbortSignal;
    suggestions?: PermissionUpdate[];
    toolUseID: string;
  },
) => Promise<PermissionResult>;

/** An MCP server started as a child over stdio. */
export interface McpStdioServerConfig {
  type?: "stdio";
  command: string;
  args?: string[];
  env?: Record<string, string>;
}
/** A remote MCP server over SSE. */
export interface McpSSEServerConfig {
  type: "sse";
  url: string;
  headers?: Record<string, string>;
}
/** A remote MCP server over streamable HTTP. */
export interface McpHttpServerConfig {
  type: "http";
  url: string;
  headers?: Record<string, string>;
}
/** Any server `mcpServers` may name. */
export type McpServerConfig =
  | McpStdioServerConfig
  | McpSSEServerConfig
  | McpHttpServerConfig
  | SdkMcpServer;

/** The preset system prompt (zeng's own base prompt), optionally with text appended. */
export interface SystemPromptPreset {
  type: "preset";
  preset: "claude_code";
  append?: string;
}

/** A subagent the main agent may start with the Task tool. */
export interface AgentDefinition {
  description: string;
  prompt: string;
  /** The tools it may use (default: its parent's). */
  tools?: string[];
  disallowedTools?: string[];
  /** `sonnet`, `opus`, `haiku` (resolved through the catalog), `inherit`, or a model id. */
  model?: string;
}

/** The JSON Schema the final answer must match (`structured_output` in the result). */
export interface OutputFormat {
  type: "json_schema";
  schema: Record<string, unknown>;
}

/** The options of {@link query} that zeng implements (see the README for the rest). */
export interface Options {
  abortController?: AbortController;
  additionalDirectories?: string[];
  agents?: Record<string, AgentDefinition>;
  allowedTools?: string[];
  canUseTool?: CanUseTool;
  continue?: boolean;
  cwd?: string;
  disallowedTools?: string[];
  env?: Record<string, string | undefined>;
  fallbackModel?: string;
  forkSession?: boolean;
  hooks?: Partial<Record<HookEvent, HookCallbackMatcher[]>>;
  includePartialMessages?: boolean;
  maxBudgetUsd?: number;
  maxTurns?: number;
  mcpServers?: Record<string, McpServerConfig>;
  model?: string;
  outputFormat?: OutputFormat;
  permissionMode?: PermissionMode;
  resume?: string;
  settingSources?: Array<"user" | "project" | "local">;
  stderr?: (data: string) => void;
  strictMcpConfig?: boolean;
  systemPrompt?: string | SystemPromptPreset;
}

/** Token usage in Anthropic's field names. */
export type SDKUsage = ClaudeUsage;

/** A content block of an assistant message. */
export type SDKContentBlock = ClaudeContentBlock;

/** A tool result block of a user message. */
export interface SDKToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** A user message: one a host streams in, or the tool results zeng reports. */
export interface SDKUserMessage {
  type: "user";
  message: {
    role: "user";
    content: string | Array<SDKToolResultBlock | { type: "text"; text: string }>;
  };
  parent_tool_use_id: string | null;
  session_id?: string;
  uuid?: string;
}

/** A finished assistant message of the main agent. */
export type SDKAssistantMessage = ClaudeAssistantMessage;

/** The `system` `init` message, first of each query. */
export interface SDKSystemMessage {
  type: "system";
  subtype: "init";
  apiKeySource: "none";
  cwd: string;
  tools: string[];
  mcp_servers: Array<{ name: string; status: string }>;
  model: string;
  permissionMode: PermissionMode;
  slash_commands: string[];
  session_id: string;
  uuid: string;
}

/** A streamed text delta (with `includePartialMessages`). */
export type SDKPartialAssistantMessage = ClaudeStreamEvent;

/** A call the permission gate refused. */
export type SDKPermissionDenial = ClaudePermissionDenial;

/** The last message of each turn, with zeng's badge. */
export type SDKResultMessage = ClaudeResultMessage;

/** Every message a query yields. */
export type SDKMessage =
  | SDKSystemMessage
  | SDKAssistantMessage
  | SDKUserMessage
  | SDKPartialAssistantMessage
  | SDKResultMessage;

/** A slash command a session offers. */
export interface SlashCommand {
  name: string;
  description: string;
  argumentHint: string;
}

/** An MCP server's state. */
export interface McpServerStatus {
  name: string;
  status: "connected" | "failed" | "needs-auth" | "pending" | "disabled";
}

/** The generator {@link query} returns, with its controls. */
export interface Query extends AsyncGenerator<SDKMessage, void> {
  /** Stops the running turn (its result says `error_during_execution`). */
  interrupt(): Promise<void>;
  setPermissionMode(mode: PermissionMode): Promise<void>;
  setModel(model?: string): Promise<void>;
  supportedCommands(): Promise<SlashCommand[]>;
  mcpServerStatus(): Promise<McpServerStatus[]>;
}
