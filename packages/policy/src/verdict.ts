import type { Decision } from "./context.js";

/** Combines several decisions: deny > ask > allow; asks merge their reasons and suggestions. */
export function combine(decisions: readonly Decision[]): Decision {
  let ask: { reasons: string[]; rules: string[] } | undefined;
  let allow: Decision | undefined;
  for (const d of decisions) {
    if (d.type === "deny") return d;
    if (d.type === "ask") {
      ask ??= { reasons: [], rules: [] };
      if (!ask.reasons.includes(d.reason)) ask.reasons.push(d.reason);
      for (const r of d.suggestedRules) if (!ask.rules.includes(r)) ask.rules.push(r);
    } else allow ??= d;
  }
  if (ask) return { type: "ask", reason: ask.reasons.join("; "), suggestedRules: ask.rules };
  return allow ?? { type: "allow", reason: "the call does nothing the gate checks" };
}

/** An allow. */
export function allow(reason: string): Decision {
  return { type: "allow", reason };
}

/** A deny. */
export function deny(reason: string): Decision {
  return { type: "deny", reason };
}

/** An ask. */
export function ask(reason: string, suggestedRules: readonly string[] = []): Decision {
  return { type: "ask", reason, suggestedRules };
}

/** The reason plan mode gives for refusing `what`. */
export function planDenial(what: string): Decision {
  return deny(
    `plan mode allows only read-only actions, so it will not ${what}. Finish the plan and call ExitPlanMode to ask the user to approve it and leave plan mode.`,
  );
}
