import type { SessionCore } from "../session/core.js";
import type { Submission } from "../run/turn.js";

/**
 * Applies what a turn brings for itself: re-read instructions (after `/remember`), a prompt
 * command's allowed-tools as session rules, and its model. Returns the function that takes
 * the rules and the model back at the turn's end (a model the user set meanwhile stays).
 */
export async function beginTurnOverrides(
  core: SessionCore,
  submission: Submission,
): Promise<() => void> {
  const fresh = await core.definitions?.refresh().catch(() => undefined);
  if (fresh) core.system = fresh;
  const added = submission.rules ?? [];
  if (added.length > 0)
    core.sessionRules = { ...core.sessionRules, allow: [...added, ...core.sessionRules.allow] };
  const previousModel = core.model;
  if (submission.model) core.model = submission.model;
  return () => {
    if (added.length > 0)
      core.sessionRules = {
        ...core.sessionRules,
        allow: core.sessionRules.allow.filter((rule) => !added.includes(rule)),
      };
    if (submission.model && core.model === submission.model) core.model = previousModel;
  };
}
