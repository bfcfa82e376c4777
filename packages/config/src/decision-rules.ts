import type { DecisionRuleEntry } from "./schema.js";

/** Custom rules a session uses, at most; later ones are skipped with a notice. */
export const MAX_DECISION_RULES = 20;

/** Where a custom rule is judged: an allowed tool call, or the user's prompt at turn start. */
export type DecisionRuleSeam = "tool_gate" | "turn_start";

/** One usable `[[decisions.rules]]` entry. */
export interface DecisionRule {
  /** The written name, or `rule N` (N its 1-based place in the list). */
  readonly name: string;
  readonly when: string;
  readonly at: DecisionRuleSeam;
  /** For `turn_start`: the reminder's text, when one is written. */
  readonly remind?: string;
}

/** The usable rules, and one message per rule skipped. */
export interface DecisionRules {
  readonly rules: readonly DecisionRule[];
  readonly skipped: readonly string[];
}

const SEAMS: readonly string[] = ["tool_gate", "turn_start"];

/**
 * Reads `[[decisions.rules]]` leniently: a rule without `when`, or whose `at` is not
 * `tool_gate` or `turn_start`, is skipped with a message naming it; rules past
 * MAX_DECISION_RULES are skipped with one message. A missing name is `rule N`. Pure; never
 * throws.
 */
export function decisionRules(settings: {
  readonly decisions: { readonly rules?: readonly DecisionRuleEntry[] };
}): DecisionRules {
  const written = settings.decisions.rules ?? [];
  const rules: DecisionRule[] = [];
  const skipped: string[] = [];
  for (const [i, entry] of written.slice(0, MAX_DECISION_RULES).entries()) {
    const name = entry.name?.trim() || `rule ${i + 1}`;
    const when = entry.when?.trim() ?? "";
    const at = entry.at ?? "";
    if (when === "") skipped.push(`decision rule "${name}" is skipped: it has no \`when\``);
    else if (!SEAMS.includes(at))
      skipped.push(
        `decision rule "${name}" is skipped: \`at\` must be "tool_gate" or "turn_start", not "${at}"`,
      );
    else {
      const remind = entry.remind?.trim();
      rules.push({ name, when, at: at as DecisionRuleSeam, ...(remind ? { remind } : {}) });
    }
  }
  if (written.length > MAX_DECISION_RULES)
    skipped.push(
      `${written.length - MAX_DECISION_RULES} decision rule(s) past the first ${MAX_DECISION_RULES} are skipped`,
    );
  return { rules, skipped };
}
