import type { HookEventName } from "@z-engine/protocol";

// The hook events are protocol's one list (settings validate against the same).
export { HOOK_EVENTS, type HookEventName } from "@z-engine/protocol";

/** A hook's timeout when its entry gives none. */
export const DEFAULT_HOOK_TIMEOUT_SECS = 60;

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

/**
 * Where a hook run belongs in the session's trace: the turn, the agent (a subagent's id) and
 * the tool call that caused it, as far as they are known.
 */
export interface HookParent {
  readonly turnId?: string;
  readonly agentId?: string;
  readonly toolCallId?: string;
}

/** One hook about to run, as its span names it. */
export interface HookSpanStart {
  readonly sessionId: string;
  readonly event: HookEventName;
  readonly matcher: string;
  /** The shell command, or a callback's name. */
  readonly command: string;
  readonly kind: "command" | "callback";
  readonly parent: HookParent;
}

/** How one hook run ended: `ok`, `blocked` (exit 2, `decision: "block"`), `stopped` (`continue: false`), `timeout` or `failed` (a warning). */
export type HookRunOutcome = "ok" | "blocked" | "stopped" | "timeout" | "failed";

/** What one hook run said, as its span records it. */
export interface HookSpanEnd {
  readonly outcome: HookRunOutcome;
  readonly blocked: boolean;
  readonly permissionDecision?: "allow" | "deny" | "ask";
  readonly exitCode?: number | null;
}

/** A started hook span: ended once, when the hook has answered. */
export interface HookSpan {
  end(result: HookSpanEnd): void;
}

/**
 * Spans for hook runs (the session's telemetry implements it). `start` returns undefined
 * when nothing records; it never throws.
 */
export interface HookSpans {
  start(run: HookSpanStart): HookSpan | undefined;
}
