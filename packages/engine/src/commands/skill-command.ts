import { join } from "node:path";
import type { CustomCommand, FoundSkill } from "../definitions/discover.js";

/** Claude Code's placeholder for a skill's folder. */
const SKILL_DIR = "$" + "{CLAUDE_SKILL_DIR}";

/**
 * A skill as the prompt command `/<name>` runs, as Claude Code invokes one: the message starts
 * with the skill's base folder, `${CLAUDE_SKILL_DIR}` in its body is that folder, and the body
 * is a template like a command's (`$ARGUMENTS`, `$1`, `!\`cmd\``, `@path`; arguments given to a
 * body without a placeholder are appended). Its `allowed-tools` and `model` apply to that turn,
 * with a command's trust rules (a project skill in an untrusted folder grants nothing).
 */
export function skillCommand(skill: FoundSkill): CustomCommand {
  const body = skill.body.replaceAll(SKILL_DIR, skill.dir);
  return {
    name: skill.name,
    description: skill.description,
    allowedTools: skill.allowedTools,
    argumentHint: skill.argumentHint,
    model: skill.model,
    disableModelInvocation: skill.disableModelInvocation,
    hooks: skill.hooks,
    body: `Base directory for this skill: ${skill.dir}\n\n${body}`,
    scope: skill.scope,
    path: join(skill.dir, "SKILL.md"),
  };
}
