import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import type { SkillPort } from "@z-engine/tools";
import type { FoundSkill } from "./discover.js";

const MAX_LISTED_FILES = 50;

async function otherFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((path) => path !== "SKILL.md")
    .sort()
    .slice(0, MAX_LISTED_FILES);
}

/**
 * The session's SkillPort: the skills the model may load (not those marked
 * `disable-model-invocation`), and a skill's instructions with its folder and the files
 * beside its SKILL.md, so the model can read or run them. `onLoad` hears of each load (the
 * engine grants the skill's allowed-tools for the rest of the turn).
 */
export function skillPort(
  skills: () => readonly FoundSkill[],
  onLoad: (skill: FoundSkill) => void = () => {},
): SkillPort {
  const usable = () => skills().filter((s) => !s.disableModelInvocation);
  return {
    list: () => usable().map((s) => ({ name: s.name, description: s.description })),
    load: async (name) => {
      const skill = usable().find((s) => s.name === name);
      if (!skill) return null;
      onLoad(skill);
      const files = await otherFiles(skill.dir);
      const listing =
        files.length === 0
          ? "It has no other files."
          : `Its other files (paths relative to that folder):\n${files.map((f) => `- ${f}`).join("\n")}`;
      return [
        `# Skill: ${skill.name}`,
        `Base folder of this skill: ${skill.dir}`,
        listing,
        "",
        skill.body,
      ].join("\n");
    },
  };
}
