/**
 * The hook events, with Claude Code's names so hook scripts and settings work unchanged. The
 * one list: settings validate `[[hooks.<Event>]]` against it, and the engine fires each.
 */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionStart",
  "SessionEnd",
  "Notification",
] as const;

/** One of {@link HOOK_EVENTS}. */
export type HookEventName = (typeof HOOK_EVENTS)[number];
