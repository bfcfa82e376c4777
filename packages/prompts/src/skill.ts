import { argumentHint, type DefinitionResult } from "./definitions.js";
import { type FrontmatterHooks, frontmatterHooks } from "./frontmatter-hooks.js";
import {
  type FrontmatterValue,
  frontmatterBoolean,
  frontmatterList,
  frontmatterString,
  parseFrontmatter,
} from "./frontmatter.js";

/**
 * A skill: a folder with a `SKILL.md` (Claude Code's format: name, description,
 * allowed-tools, when_to_use, argument-hint, user-invocable, disable-model-invocation, model)
 * and possibly scripts and reference files beside it.
 */
export interface SkillDefinition {
  readonly name: string;
  readonly description: string;
  /** When the model should reach for it (`when_to_use`), if the file says. */
  readonly whenToUse: string | undefined;
  /** Rule patterns allowed while it runs, such as `Bash(python3:*)`. */
  readonly allowedTools: readonly string[];
  /** `disable-model-invocation: true`: the model's Skill tool may not load it. */
  readonly disableModelInvocation: boolean;
  /** `user-invocable: false`: it is not offered as `/<name>` (only the model may load it). */
  readonly userInvocable: boolean;
  /** What `/<name>` expects after it (`argument-hint`), as the file wrote it. */
  readonly argumentHint: string | undefined;
  /** A model for the turn `/<name>` starts (`model`); `undefined` keeps the session's. */
  readonly model: string | undefined;
  /** `hooks:` in its frontmatter: hooks that run during the turn `/<name>` starts. */
  readonly hooks: FrontmatterHooks;
  /** The instructions: the markdown body, trimmed. */
  readonly body: string;
  /** Every frontmatter field, the unknown ones included (kept, never an error). */
  readonly fields: Readonly<Record<string, FrontmatterValue>>;
}

const KNOWN_NAME = /^[\w.:-]+$/;

/**
 * Parses a `SKILL.md`. `fallbackName` (the skill's folder name) is used when the frontmatter
 * has no `name`, or one that is not a valid name (`Confidence Check`); a missing description falls back to the body's first line. Never throws:
 * malformed frontmatter, an unusable name or an empty body give `{ ok: false, error }`.
 */
export function parseSkillMarkdown(
  text: string,
  fallbackName = "",
): DefinitionResult<SkillDefinition> {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return parsed;
  const data = parsed.data;
  const written = frontmatterString(data.name) ?? fallbackName;
  // A display name such as `Confidence Check` cannot be typed after `/`: the folder's name
  // stands in (the name as written stays in `fields.name`, so a caller can say so).
  const name = KNOWN_NAME.test(written) || !KNOWN_NAME.test(fallbackName) ? written : fallbackName;
  if (!KNOWN_NAME.test(name))
    return { ok: false, error: `skill "${name}" needs a name of letters, digits, - _ . or :` };
  const body = parsed.body.trim();
  if (body === "") return { ok: false, error: `skill ${name} has an empty body` };
  const firstLine = (body.split("\n", 1)[0] ?? "").replace(/^#+\s*/, "");
  return {
    ok: true,
    value: {
      name,
      description: frontmatterString(data.description) ?? firstLine.slice(0, 100),
      whenToUse: frontmatterString(data.when_to_use ?? data["when-to-use"]),
      allowedTools: frontmatterList(data["allowed-tools"] ?? data.allowedTools) ?? [],
      disableModelInvocation: frontmatterBoolean(data["disable-model-invocation"]) ?? false,
      userInvocable: frontmatterBoolean(data["user-invocable"] ?? data["user-invokable"]) ?? true,
      argumentHint: argumentHint(data["argument-hint"] ?? data.argumentHint),
      model: frontmatterString(data.model)?.trim() || undefined,
      hooks: frontmatterHooks(text),
      body,
      fields: data,
    },
  };
}
