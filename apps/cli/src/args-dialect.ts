// Claude Code's `claude -p` flags as zeng's headless arguments. Imports nothing heavy.
import type { FlagName, ListFlag } from "./flag-table.js";
import { oneOf, quote, UsageError } from "./usage-error.js";

/** Text given inline or in a file (`--system-prompt` / `--system-prompt-file`). */
export type TextSource = { readonly text: string } | { readonly file: string };

/** The `claude -p` flags zeng takes beside its own (each present only when given). */
export interface DialectArgs {
  /** Permission rules to allow (`--allowedTools`, comma or space separated). */
  readonly allowedTools?: readonly string[];
  /** Permission rules to deny (`--disallowedTools`). */
  readonly disallowedTools?: readonly string[];
  /** Replaces zeng's base system prompt. */
  readonly systemPrompt?: TextSource;
  /** Appended to the system prompt. */
  readonly appendSystemPrompt?: TextSource;
  /** More folders the tools may work in (`--add-dir`). */
  readonly addDirs?: readonly string[];
  /** `.mcp.json`-shaped files or JSON texts (`--mcp-config`). */
  readonly mcpConfigs?: readonly string[];
  /** Only the `--mcp-config` servers start. */
  readonly strictMcpConfig?: true;
  /** A settings file or JSON text (`--settings`). */
  readonly settings?: string;
  /** Stop the turn once it has cost this much. */
  readonly maxBudgetUsd?: number;
  /** The model to move to when the main one fails. */
  readonly fallbackModel?: string;
  /** `stream-json`: user messages as JSON lines on stdin, the first the prompt, later ones steer. */
  readonly inputFormat?: "text" | "stream-json";
  /** A JSON Schema (text) the final answer must match. */
  readonly jsonSchema?: string;
  /** Accepted as Claude Code takes it (zeng always reports tools on stderr in text mode). */
  readonly verbose?: true;
  /** `stream_event` lines for each text delta in Claude Code's stream-json. */
  readonly includePartialMessages?: true;
  /** `--fork-session`: the resumed session (`-r`/`-c`) is copied into a new one, which goes on. */
  readonly forkSession?: true;
  /** `--session-id UUID`: the id of the session this run creates (or of the fork). */
  readonly sessionId?: string;
}

/**
 * Splits tool rules given as one or more words: commas and spaces separate rules except
 * inside parentheses (`"Bash(git log:*) Read,Edit"` is three rules).
 */
export function splitRules(values: readonly string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = "";
    for (const ch of value) {
      if (ch === "(") depth++;
      if (ch === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === "," || /\s/.test(ch))) {
        if (current !== "") rules.push(current);
        current = "";
        continue;
      }
      current += ch;
    }
    if (current !== "") rules.push(current);
  }
  return rules;
}

function textSource(flags: Map<FlagName, string>, name: "system-prompt" | "append-system-prompt") {
  const text = flags.get(name);
  const file = flags.get(`${name}-file`);
  if (text !== undefined && file !== undefined)
    throw new UsageError(`--${name} and --${name}-file cannot be used together`);
  if (text !== undefined) return { text };
  return file === undefined ? undefined : { file };
}

function budget(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0))
    throw new UsageError(
      `--max-budget-usd must be a positive number of dollars (got ${quote(value)})`,
    );
  return n;
}

function listOf(lists: Map<ListFlag, string[]>, name: ListFlag, rules: boolean) {
  const values = lists.get(name);
  if (values === undefined) return undefined;
  return rules ? splitRules(values) : values;
}

/** The dialect flags of a scanned command line. Throws UsageError for a bad value. */
export function dialectArgs(
  flags: Map<FlagName, string>,
  lists: Map<ListFlag, string[]>,
): DialectArgs {
  const fields: Record<string, unknown> = {
    allowedTools: listOf(lists, "allowedTools", true),
    disallowedTools: listOf(lists, "disallowedTools", true),
    systemPrompt: textSource(flags, "system-prompt"),
    appendSystemPrompt: textSource(flags, "append-system-prompt"),
    addDirs: listOf(lists, "add-dir", false),
    mcpConfigs: listOf(lists, "mcp-config", false),
    strictMcpConfig: flags.has("strict-mcp-config") || undefined,
    settings: flags.get("settings"),
    maxBudgetUsd: budget(flags.get("max-budget-usd")),
    fallbackModel: flags.get("fallback-model"),
    jsonSchema: flags.get("json-schema"),
    verbose: flags.has("verbose") || undefined,
    includePartialMessages: flags.has("include-partial-messages") || undefined,
    forkSession: flags.has("fork-session") || undefined,
    sessionId: sessionIdOf(flags.get("session-id")),
  };
  const input = flags.get("input-format");
  if (input !== undefined)
    fields.inputFormat = oneOf("--input-format", input, ["text", "stream-json"] as const);
  if (fields.strictMcpConfig && fields.mcpConfigs === undefined)
    throw new UsageError("--strict-mcp-config needs --mcp-config");
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined),
  ) as DialectArgs;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--session-id`'s value: a UUID, as Claude Code requires (lower-cased). */
function sessionIdOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!UUID.test(value))
    throw new UsageError(`--session-id needs a UUID (got ${JSON.stringify(value)})`);
  return value.toLowerCase();
}
