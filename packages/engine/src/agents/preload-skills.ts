import { skillPort } from "../definitions/skill-port.js";
import type { SessionCore } from "../core/session-core.js";

/**
 * The skills an agent definition lists under `skills:`, loaded whole into its system prompt
 * at start (as Claude Code preloads them: the content, not only the offer), each as the Skill
 * tool would return it (its folder, its other files, its body). A name the session has no
 * skill of is a `agent.skill` notice and is left out. Empty when the definition lists none.
 * Never rejects for a missing or unreadable skill.
 */
export async function preloadSkills(
  core: SessionCore,
  agentType: string,
  names: readonly string[],
): Promise<string> {
  if (names.length === 0) return "";
  const skills = core.definitions?.skills ?? [];
  // Listed by name, the user's own choice, so one the model may not invoke loads too.
  const port = skillPort(() => skills.map((s) => ({ ...s, disableModelInvocation: false })), {
    project: core.doors.project,
    user: core.doors.user,
  });
  const texts: string[] = [];
  for (const name of names) {
    const text = await port.load(name);
    if (text !== null) texts.push(text);
    else
      await core.journal.notice(
        "warning",
        "agent.skill",
        `agent ${agentType} lists skill "${name}", which this session does not have; it is not preloaded`,
      );
  }
  return texts.join("\n\n");
}
