import type { HookEventName } from "@z-engine/protocol";

// The hook events are protocol's one list (settings validate against the same).
export { HOOK_EVENTS, type HookEventName } from "@z-engine/protocol";

/**
 * A host's hook in code (the Agent SDK's hook callbacks): it gets the input a command hook
 * reads on stdin and answers what one would print as JSON (`{}` to continue). A throw or a
 * timeout is a warning, as a failing command's is.
 */
export type HookCallback = (
  input: Readonly<Record<string, unknown>>,
  signal: AbortSignal,
) => Promise<Readonly<Record<string, unknown>> | undefined>;

/** One configured hook (`[[hooks.<Event>]]` with matcher, command, timeout_secs). */
export interface HookDefinition {
  /** A regex on the tool name (or the event's subject); `*` or empty matches all. */
  readonly matcher: string;
  /** The shell command; for a callback, the name its warnings use. */
  readonly command: string;
  readonly timeoutSecs: number;
  /** Runs in process instead of `command` (a session's `hookCallbacks`). */
  readonly callback?: HookCallback;
}

/** The hooks of a session, by event. */
export type HookTable = Partial<Record<HookEventName, readonly HookDefinition[]>>;

/** What every hook of one event said, combined. */
export interface HookOutcome {
  /** How many hooks ran. */
  readonly ran: number;
  /** Exit code 2 or `decision: "block"`: the meaning depends on the event (deny a call, drop a prompt, continue a stop). */
  readonly blocked: boolean;
  readonly blockReason: string;
  /** `continue: false`: stop the turn, with `stopReason`. */
  readonly stop: boolean;
  readonly stopReason: string;
  /** PreToolUse's `permissionDecision` (deny beats ask beats allow across hooks). */
  readonly permissionDecision?: "allow" | "deny" | "ask";
  readonly permissionReason: string;
  /** PreToolUse's `updatedInput` (the last hook that gave one wins). */
  readonly updatedInput?: Record<string, unknown>;
  /** Context for the model: plain stdout (UserPromptSubmit, SessionStart) and `additionalContext`. */
  readonly additionalContext: readonly string[];
  /** `systemMessage`s, for the user. */
  readonly systemMessages: readonly string[];
  /** Problems that did not block: other exit codes, timeouts, invalid JSON, bad matchers. */
  readonly warnings: readonly string[];
}

export const emptyHookOutcome: HookOutcome = {
  ran: 0,
  blocked: false,
  blockReason: "",
  stop: false,
  stopReason: "",
  permissionReason: "",
  additionalContext: [],
  systemMessages: [],
  warnings: [],
};
