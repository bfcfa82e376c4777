/**
 * @z-engine/prompts: the words the engine says to the model. Everything exported here is
 * public API. The texts live as markdown in `prompts/` and ship compiled into
 * `src/generated/prompt-files.ts` (run `pnpm run generate` after editing them).
 */

// Built-in texts
export type { BuiltinToolName } from "./builtins.js";
export {
  BUILTIN_TOOL_NAMES,
  basePrompt,
  builtinCommands,
  compactionPrompt,
  loadBuiltinAgents,
  outputStyles,
  PromptDataError,
  toolDescription,
} from "./builtins.js";

// Definitions (shared with the engine's loaders for .claude/ and .z-engine/ files)
export type {
  AgentDefinition,
  CommandDefinition,
  DefinitionResult,
  OutputStyle,
} from "./definitions.js";
export {
  parseAgentMarkdown,
  parseCommandMarkdown,
  parseOutputStyleMarkdown,
} from "./definitions.js";

// Skills (`.claude/skills/<name>/SKILL.md`, `.z-engine/skills/<name>/SKILL.md`)
export type { SkillDefinition } from "./skill.js";
export { parseSkillMarkdown } from "./skill.js";

// `hooks:` in agent frontmatter (Claude Code's nested shape)
export type { FrontmatterHook, FrontmatterHooks } from "./frontmatter-hooks.js";
export { frontmatterHooks } from "./frontmatter-hooks.js";

// Frontmatter (a YAML subset)
export type { FrontmatterResult, FrontmatterValue, ParsedMarkdown } from "./frontmatter.js";
export {
  frontmatterBoolean,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
  splitTopLevel,
} from "./frontmatter.js";
