import { PermissionMode } from "@z-engine/protocol";
import { type FrontmatterHooks, frontmatterHooks } from "./frontmatter-hooks.js";
import {
  type FrontmatterValue,
  frontmatterBoolean,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
  splitTopLevel,
} from "./frontmatter.js";

/**
 * An agent definition, from a built-in file or a user's `.claude/agents/*.md` /
 * `.z-engine/agents/*.md` (Claude Code's format: name, description, tools, disallowedTools,
 * model, permissionMode, maxTurns, skills, color; other keys are ignored).
 */
export interface AgentDefinition {
  readonly name: string;
  readonly description: string;
  /**
   * The tools it may use: names, rule-like patterns and MCP wildcards (`mcp__jira__*`);
   * `undefined` means every tool its parent has (`tools` absent or `*`).
   */
  readonly tools: readonly string[] | undefined;
  /** Tools it may never use (same forms as `tools`); empty when the file names none. */
  readonly disallowedTools: readonly string[];
  /**
   * Which model runs it: `inherit` (the parent's, the default), a role (`main`, `fast`), or
   * whatever the file names (an alias or a model id), which the engine resolves.
   */
  readonly model: string;
  /** The permission mode it runs in; `undefined` inherits the parent's. */
  readonly permissionMode: PermissionMode | undefined;
  /** Its own round limit; `undefined` uses the session's `agents.max_turns`. */
  readonly maxTurns: number | undefined;
  /** Skills it should load (names, as the file lists them). */
  readonly skills: readonly string[];
  /** A display colour for hosts (`red`, `blue`, ...), or `undefined`. */
  readonly color: string | undefined;
  /**
   * `hooks:` in its frontmatter (Claude Code's shape): hooks that run while it runs, with a
   * line for each part that could not be used. None when the file has no `hooks:`.
   */
  readonly hooks: FrontmatterHooks;
  /** The system prompt: the markdown body, trimmed. */
  readonly prompt: string;
}

/**
 * A prompt command, from a built-in file or `.claude/commands/*.md` / `.z-engine/commands/*.md`
 * (Claude Code's format: description, allowed-tools, argument-hint, model).
 */
export interface CommandDefinition {
  readonly name: string;
  readonly description: string;
  /** Rule patterns allowed for the turn it starts, such as `Bash(git diff:*)`. */
  readonly allowedTools: readonly string[];
  readonly argumentHint: string | undefined;
  /** A model for that turn only; `undefined` keeps the session's. */
  readonly model: string | undefined;
  /** `disable-model-invocation: true`: only the user may run it (the model's Skill tool may not). */
  readonly disableModelInvocation: boolean;
  /** `hooks:` in its frontmatter: hooks that run during the turn it starts. */
  readonly hooks: FrontmatterHooks;
  /** The template: `$ARGUMENTS`, `$1`..`$9`, `@path` and `!\`cmd\`` are expanded by the engine. */
  readonly body: string;
}

/** An output style: extra instructions for how answers are written. */
export interface OutputStyle {
  readonly name: string;
  readonly description: string;
  /** The section text; empty for the default style, which adds nothing. */
  readonly prompt: string;
}

/** A parsed definition, or why the file could not be used. */
export type DefinitionResult<T> = { ok: true; value: T } | { ok: false; error: string };

type Fields = Readonly<Record<string, FrontmatterValue>>;

function field(data: Fields, ...keys: string[]): FrontmatterValue | undefined {
  for (const key of keys) if (data[key] !== undefined) return data[key];
  return undefined;
}

/** Claude Code's mode names, mapped onto ours. */
const CLAUDE_MODES: Readonly<Record<string, PermissionMode>> = {
  default: "ask",
  bypassPermissions: "bypass",
};

function agentMode(name: string, text: string | undefined) {
  if (text === undefined) return { ok: true as const, mode: undefined };
  const mode = PermissionMode.safeParse(CLAUDE_MODES[text] ?? text);
  if (!mode.success)
    return { ok: false as const, error: `agent ${name}: unknown permission mode "${text}"` };
  return { ok: true as const, mode: mode.data };
}

function agentMaxTurns(name: string, text: string | undefined) {
  if (text === undefined || text === "") return { ok: true as const, maxTurns: undefined };
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    return {
      ok: false as const,
      error: `agent ${name}: maxTurns "${text}" is not a positive integer`,
    };
  return { ok: true as const, maxTurns: value };
}

/** A tool list as the file wrote it: a comma string or a YAML list, items split and trimmed. */
function toolNames(value: FrontmatterValue | undefined): string[] | undefined {
  const list = frontmatterList(value);
  return list?.flatMap((item) => splitTopLevel(item));
}

function agentFromFields(
  data: Fields,
  body: string,
  fallbackName: string,
  hooks: FrontmatterHooks,
) {
  const name = frontmatterString(field(data, "name"))?.trim() || fallbackName;
  const description = frontmatterString(field(data, "description"));
  if (name === "") return { ok: false as const, error: "agent has no name" };
  if (description === undefined || description.trim() === "")
    return { ok: false as const, error: `agent ${name} has no description` };
  const toolList = toolNames(field(data, "tools"));
  const tools = toolList === undefined || toolList.includes("*") ? undefined : toolList;
  const mode = agentMode(name, frontmatterString(field(data, "permissionMode", "permission-mode")));
  if (!mode.ok) return mode;
  const turns = agentMaxTurns(name, frontmatterString(field(data, "maxTurns", "max-turns")));
  if (!turns.ok) return turns;
  const model = frontmatterString(field(data, "model"))?.trim();
  const color = frontmatterString(field(data, "color"))?.trim();
  const value: AgentDefinition = {
    name,
    // Agent generators write unquoted descriptions with a literal `\n` for each line break.
    description: description.replaceAll("\\n", "\n").trim(),
    tools,
    disallowedTools: toolNames(field(data, "disallowedTools", "disallowed-tools")) ?? [],
    model: model || "inherit",
    permissionMode: mode.mode,
    maxTurns: turns.maxTurns,
    skills: toolNames(field(data, "skills")) ?? [],
    color: color || undefined,
    hooks,
    prompt: body.trim(),
  };
  return { ok: true as const, value };
}

/**
 * Parses an agent file. `fallbackName` (usually the file name without `.md`) is used when the
 * frontmatter has no `name`. Never throws: a missing description, a bad permission mode or
 * malformed frontmatter give `{ ok: false, error }`.
 */
export function parseAgentMarkdown(
  text: string,
  fallbackName = "",
): DefinitionResult<AgentDefinition> {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  return agentFromFields(parsed.data, parsed.body, fallbackName, frontmatterHooks(text));
}

/**
 * `argument-hint: [message]` and `[file, line]` read as YAML lists; show them as the user wrote
 * them (one pair of brackets, the items as listed), not as `[file] [line]`.
 */
export function argumentHint(value: FrontmatterValue | undefined): string | undefined {
  if (Array.isArray(value)) return value.length === 0 ? undefined : `[${value.join(", ")}]`;
  return frontmatterString(value);
}

/**
 * Parses a command file named `name` (the file name without `.md`; folders become `a:b`
 * upstream). A missing description falls back to the body's first line. Never throws:
 * malformed frontmatter or an empty body give `{ ok: false, error }`.
 */
export function parseCommandMarkdown(
  text: string,
  name: string,
): DefinitionResult<CommandDefinition> {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  const body = parsed.body.trim();
  if (body === "") return { ok: false, error: `command ${name} has an empty body` };
  const data = parsed.data;
  const firstLine = body.split("\n", 1)[0] ?? "";
  return {
    ok: true,
    value: {
      name,
      description: frontmatterString(field(data, "description")) ?? firstLine.slice(0, 100),
      allowedTools: frontmatterList(field(data, "allowed-tools", "allowedTools")) ?? [],
      argumentHint: argumentHint(field(data, "argument-hint", "argumentHint")),
      model: frontmatterString(field(data, "model")),
      disableModelInvocation:
        frontmatterBoolean(field(data, "disable-model-invocation", "disableModelInvocation")) ??
        false,
      hooks: frontmatterHooks(text),
      body,
    },
  };
}

/**
 * Parses an output style file. `name` falls back to `fallbackName` (the file name), a missing
 * description to "" (Claude Code's style files may omit it). Never throws; a style with no
 * name or an empty body is an error value.
 */
export function parseOutputStyleMarkdown(
  text: string,
  fallbackName = "",
): DefinitionResult<OutputStyle> {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  const name = frontmatterString(parsed.data.name) ?? fallbackName;
  const description = frontmatterString(parsed.data.description) ?? "";
  if (name === "") return { ok: false, error: "output style (unnamed) needs a name" };
  const prompt = parsed.body.trim();
  if (prompt === "" && name !== "default")
    return { ok: false, error: `output style ${name} has an empty body` };
  return { ok: true, value: { name, description, prompt } };
}
