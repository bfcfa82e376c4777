import { type CompiledRule, compileRules } from "@z-engine/policy";
import type { SessionCore } from "../core/session-core.js";
import type { FoundSkill } from "../definitions/discover.js";

/**
 * A loaded skill's allowed-tools, as allow rules until the running turn ends; nothing for a
 * project's skill in an untrusted folder.
 */
export function grantSkillRules(core: SessionCore, skill: FoundSkill): void {
  if (skill.allowedTools.length === 0 || (skill.scope === "project" && !core.trusted)) return;
  const { rules } = compileRules([...skill.allowedTools], {
    source: `skill ${skill.name}`,
    root: core.projectRoot,
  });
  if (rules.length === 0) return;
  const held = core.state.sessionRules;
  core.state.replaceSessionRules({ ...held, allow: [...rules, ...held.allow] });
  core.definitions?.addGrants(rules);
}

/**
 * Applies what a turn brings for itself: re-read instructions (after `/remember`), a prompt
 * command's allowed-tools as session rules, and its model. Returns the function that takes
 * the rules and the model back at the turn's end (a model the user set meanwhile stays).
 */
export async function beginTurnOverrides(
  core: Pick<SessionCore, "definitions" | "system" | "state" | "model">,
  submission: { readonly rules?: readonly CompiledRule[]; readonly model?: string },
): Promise<() => void> {
  const fresh = await core.definitions?.refresh().catch(() => undefined);
  if (fresh) core.system = fresh;
  const added = submission.rules ?? [];
  if (added.length > 0) {
    const held = core.state.sessionRules;
    core.state.replaceSessionRules({ ...held, allow: [...added, ...held.allow] });
  }
  const previousModel = core.model;
  if (submission.model) core.state.overrideModel(submission.model);
  return () => {
    const granted = [...added, ...(core.definitions?.takeGrants() ?? [])];
    if (granted.length > 0) {
      const held = core.state.sessionRules;
      core.state.replaceSessionRules({
        ...held,
        allow: held.allow.filter((rule) => !granted.includes(rule)),
      });
    }
    if (submission.model && core.model === submission.model)
      core.state.overrideModel(previousModel);
  };
}
