import type { EffectiveSettings } from "./effective.js";

/** How a decision feature runs: `[experimental] decisions_<name>`. */
export type DecisionFeatureMode = "off" | "shadow" | "on";

/**
 * The mode of decision feature `name` (e.g. `review_call`) from `[experimental]
 * decisions_<name>`: `"on"`, `"shadow"` or `"off"`; `true` means on, `false` and a missing
 * key off. Never throws.
 */
export function decisionFeatureMode(
  settings: Pick<EffectiveSettings, "experimental">,
  name: string,
): DecisionFeatureMode {
  const value = settings.experimental[`decisions_${name}`];
  if (value === true || value === "on") return "on";
  if (value === "shadow") return "shadow";
  return "off";
}
