import { join } from "node:path";
import type { ProjectFileReader } from "@z-engine/protocol";
import type { SkillPort } from "@z-engine/tools";
import type { DefinitionDoors, FoundSkill } from "./discover.js";

const MAX_LISTED_FILES = 50;
const MAX_DEPTH = 6;

/** The files beside a skill's SKILL.md (names only, through its door; links are not entered). */
async function otherFiles(files: ProjectFileReader, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string, prefix: string, depth: number): Promise<void> => {
    for (const entry of (await files.list(folder)) ?? []) {
      if (out.length >= MAX_LISTED_FILES * 4) return;
      const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.kind === "folder" && depth < MAX_DEPTH)
        await walk(join(folder, entry.name), rel, depth + 1);
      else if (entry.kind === "file" && rel !== "SKILL.md") out.push(rel);
    }
  };
  await walk(dir, "", 0);
  return out.sort().slice(0, MAX_LISTED_FILES);
}

/**
 * The session's SkillPort: the skills the model may load (not those marked
 * `disable-model-invocation`), and a skill's instructions with its folder and the files
 * beside its SKILL.md, so the model can read or run them. `onLoad` hears of each load (the
 * engine grants the skill's allowed-tools for the rest of the turn).
 */
export function skillPort(
  skills: () => readonly FoundSkill[],
  doors: DefinitionDoors,
  onLoad: (skill: FoundSkill) => void = () => {},
): SkillPort {
  const usable = () => skills().filter((s) => !s.disableModelInvocation);
  return {
    list: () => usable().map((s) => ({ name: s.name, description: s.description })),
    load: async (name) => {
      const skill = usable().find((s) => s.name === name);
      if (!skill) return null;
      onLoad(skill);
      const files = await otherFiles(
        skill.scope === "project" ? doors.project : doors.user,
        skill.dir,
      );
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
