import {
  type AgentDefinition,
  type CommandDefinition,
  type DefinitionResult,
  type OutputStyle,
  parseAgentMarkdown,
  parseCommandMarkdown,
  parseOutputStyleMarkdown,
} from "./definitions.js";
import { frontmatterString, parseFrontmatter } from "./frontmatter.js";
import { PROMPT_FILES } from "./generated/prompt-files.js";

/** The names of the built-in tools, each with a description in `prompts/tools/`. */
export const BUILTIN_TOOL_NAMES = [
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "Glob",
  "Grep",
  "Bash",
  "JobOutput",
  "JobKill",
  "WebFetch",
  "WebSearch",
  "TodoWrite",
  "AskUserQuestion",
  "ExitPlanMode",
  "Agent",
  "ApplyAgentChanges",
  "Verify",
  "LSP",
  "Skill",
  "ListMcpResources",
  "ReadMcpResource",
  "LoadMcpTools",
] as const;

/** A built-in tool's name. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Thrown only when the package's own prompt data is broken (a bug caught by its tests). */
export class PromptDataError extends Error {
  readonly code = "promptDataInvalid";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PromptDataError";
  }
}

function file(path: string): string {
  const text = PROMPT_FILES[path];
  if (text === undefined) throw new PromptDataError(`missing prompt file ${path}`);
  return text;
}

function filesUnder(folder: string): Array<[name: string, text: string]> {
  return (
    Object.entries(PROMPT_FILES)
      .filter(([path]) => path.startsWith(`${folder}/`))
      .map(([path, text]): [string, string] => [path.slice(folder.length + 1, -".md".length), text])
      // Code-unit order: the names are ASCII, and the first localeCompare of a process builds
      // ICU's collator (6-8 ms on the start path, issue 18).
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  );
}

function must<T>(result: DefinitionResult<T>, what: string): T {
  if (!result.ok) throw new PromptDataError(`${what}: ${result.error}`);
  return result.value;
}

let toolTexts: ReadonlyMap<string, string> | undefined;
let agents: readonly AgentDefinition[] | undefined;
let commands: readonly CommandDefinition[] | undefined;
let styles: readonly OutputStyle[] | undefined;

/** The base system prompt: who the agent is and how it works. The same string on every call. */
export function basePrompt(): string {
  return file("base.md").trim();
}

/** The instructions given to the fast model that summarises older history in a compaction. */
export function compactionPrompt(): string {
  return file("compact.md").trim();
}

function loadToolTexts(): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  for (const [fileName, text] of filesUnder("tools")) {
    const parsed = parseFrontmatter(text);
    const name = parsed.ok ? frontmatterString(parsed.data.name) : undefined;
    if (!parsed.ok || name === undefined)
      throw new PromptDataError(`tools/${fileName}.md has no name`);
    map.set(name, parsed.body.trim());
  }
  return map;
}

/**
 * The description of a built-in tool, as offered to the model. Stable across calls (the
 * same string each time), so tool specs serialise identically round to round. Throws
 * `PromptDataError` only if the package shipped without it, which its tests rule out.
 */
export function toolDescription(name: BuiltinToolName): string {
  toolTexts ??= loadToolTexts();
  const text = toolTexts.get(name);
  if (text === undefined) throw new PromptDataError(`no description for tool ${name}`);
  return text;
}

/** The built-in agents (general, explore, plan, review, verify), sorted by name; frozen. */
export function loadBuiltinAgents(): readonly AgentDefinition[] {
  agents ??= Object.freeze(
    filesUnder("agents").map(([name, text]) =>
      Object.freeze(must(parseAgentMarkdown(text, name), `agents/${name}.md`)),
    ),
  );
  return agents;
}

/** The built-in prompt commands (init, review, security-review), sorted by name; frozen. */
export function builtinCommands(): readonly CommandDefinition[] {
  commands ??= Object.freeze(
    filesUnder("commands").map(([name, text]) =>
      Object.freeze(must(parseCommandMarkdown(text, name), `commands/${name}.md`)),
    ),
  );
  return commands;
}

/** The built-in output styles (default, explanatory, learning), sorted by name; frozen. */
export function outputStyles(): readonly OutputStyle[] {
  styles ??= Object.freeze(
    filesUnder("output-styles").map(([name, text]) =>
      Object.freeze(must(parseOutputStyleMarkdown(text, name), `output-styles/${name}.md`)),
    ),
  );
  return styles;
}
