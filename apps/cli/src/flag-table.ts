/**
 * The flags `zeng` knows, by kind: zeng's own names and Claude Code's (`claude -p`), with
 * Claude Code's spelling (`--allowedTools`, `--add-dir`). Imports nothing (start-up).
 */

/** zeng's own flags that take one value. */
const ZENG_VALUE_FLAGS = ["output-format", "permission-mode", "model", "cwd", "max-turns"] as const;

/** Claude Code's flags (only Claude Code has them) that take one value. */
const CLAUDE_VALUE_FLAGS = [
  "system-prompt",
  "system-prompt-file",
  "append-system-prompt",
  "append-system-prompt-file",
  "settings",
  "session-id",
  "max-budget-usd",
  "fallback-model",
  "input-format",
  "json-schema",
] as const;

/** Claude Code's flags that take no value. */
const CLAUDE_BOOLEAN_FLAGS = [
  "strict-mcp-config",
  "fork-session",
  "verbose",
  "include-partial-messages",
  "dangerously-skip-permissions",
] as const;

/** Flags that take one value. */
export const VALUE_FLAGS = [...ZENG_VALUE_FLAGS, ...CLAUDE_VALUE_FLAGS] as const;

/** Flags that take no value. */
export const BOOLEAN_FLAGS = [
  "continue",
  "help",
  "version",
  "debug",
  ...CLAUDE_BOOLEAN_FLAGS,
] as const;

/**
 * Flags that take one or more values (Claude Code's variadic options: every following word
 * that does not start with `-` is a value) and may be given more than once.
 */
export const LIST_FLAGS = ["allowedTools", "disallowedTools", "add-dir", "mcp-config"] as const;

/** Flags whose value is optional: `-p` (the prompt, else stdin) and `--resume` (interactive: a picker). */
export const OPTIONAL_VALUE_FLAGS = ["print", "resume"] as const;

export type ValueFlag = (typeof VALUE_FLAGS)[number];
export type BooleanFlag = (typeof BOOLEAN_FLAGS)[number];
export type ListFlag = (typeof LIST_FLAGS)[number];
export type OptionalValueFlag = (typeof OPTIONAL_VALUE_FLAGS)[number];
export type FlagName = ValueFlag | BooleanFlag | ListFlag | OptionalValueFlag;

/** Short forms, as Claude Code spells them. */
export const SHORT: Readonly<Record<string, FlagName>> = {
  "-p": "print",
  "-h": "help",
  "-V": "version",
  "-v": "version",
  "-c": "continue",
  "-r": "resume",
};

/** Claude Code's camelCase spellings of flags zeng spells in kebab case. */
export const ALIASES: Readonly<Record<string, FlagName>> = {
  "--allowed-tools": "allowedTools",
  "--disallowed-tools": "disallowedTools",
};

/**
 * Flags only Claude Code has: with one of them, `--output-format json|stream-json` writes
 * Claude Code's message shapes (README, "Claude Code's dialect").
 */
export const CLAUDE_ONLY: ReadonlySet<FlagName> = new Set<FlagName>([
  ...CLAUDE_VALUE_FLAGS,
  ...CLAUDE_BOOLEAN_FLAGS,
  ...LIST_FLAGS,
]);

const KINDS = new Map<string, "value" | "boolean" | "list" | "optional">([
  ...VALUE_FLAGS.map((f) => [f, "value"] as const),
  ...BOOLEAN_FLAGS.map((f) => [f, "boolean"] as const),
  ...LIST_FLAGS.map((f) => [f, "list"] as const),
  ...OPTIONAL_VALUE_FLAGS.map((f) => [f, "optional"] as const),
]);

/** The kind of a flag name, or undefined for a name zeng does not know. */
export function flagKind(name: string): "value" | "boolean" | "list" | "optional" | undefined {
  return KINDS.get(name);
}
