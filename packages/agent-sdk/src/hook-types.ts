// The Agent SDK's hook shapes: the events, the callbacks' inputs and answers.

/** The hook events the Agent SDK names; zeng fires those in the README's table. */
export type HookEvent =
  | "PreToolUse"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "Notification"
  | "UserPromptSubmit"
  | "SessionStart"
  | "SessionEnd"
  | "Stop"
  | "SubagentStart"
  | "SubagentStop"
  | "PreCompact"
  | "PermissionRequest";

/** What every hook input carries. */
export interface BaseHookInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode?: string;
}
/** Before a tool call, after its input is read and before the permission gate. */
export interface PreToolUseHookInput extends BaseHookInput {
  hook_event_name: "PreToolUse";
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
}
/** After a tool call. */
export interface PostToolUseHookInput extends BaseHookInput {
  hook_event_name: "PostToolUse";
  tool_name: string;
  tool_input: unknown;
  tool_response: unknown;
  tool_use_id: string;
}
/** Before a prompt goes to the model. */
export interface UserPromptSubmitHookInput extends BaseHookInput {
  hook_event_name: "UserPromptSubmit";
  prompt: string;
}
/** Any other event's input (its fields as Claude Code's hooks get them). */
export interface OtherHookInput extends BaseHookInput {
  hook_event_name: Exclude<HookEvent, "PreToolUse" | "PostToolUse" | "UserPromptSubmit">;
  [field: string]: unknown;
}
/** A hook callback's input. */
export type HookInput =
  | PreToolUseHookInput
  | PostToolUseHookInput
  | UserPromptSubmitHookInput
  | OtherHookInput;

/** A hook's answer, as a command hook's JSON stdout. */
export interface SyncHookJSONOutput {
  continue?: boolean;
  suppressOutput?: boolean;
  stopReason?: string;
  decision?: "approve" | "block";
  systemMessage?: string;
  reason?: string;
  hookSpecificOutput?: {
    hookEventName: HookEvent;
    permissionDecision?: "allow" | "deny" | "ask";
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };
}
/** An answer that does not hold the event up (zeng continues at once). */
export interface AsyncHookJSONOutput {
  async: true;
  asyncTimeout?: number;
}
/** What a hook callback resolves with. */
export type HookJSONOutput = SyncHookJSONOutput | AsyncHookJSONOutput;

/** A host's hook: the input, the tool call's id (tool events), and an abort signal. */
export type HookCallback = (
  input: HookInput,
  toolUseID: string | undefined,
  options: { signal: AbortSignal },
) => Promise<HookJSONOutput>;

/** Callbacks for the calls whose subject (the tool name) matches `matcher` (a regex; empty: all). */
export interface HookCallbackMatcher {
  matcher?: string;
  hooks: HookCallback[];
  /** Seconds each callback may take (default 60). */
  timeout?: number;
}
