import type { ReminderQueue } from "@z-engine/context";
import type { Action, Decision } from "@z-engine/policy";
import type { TurnId } from "@z-engine/protocol";
import type { SeamAdvice } from "./seams.js";
import { type DecisionHost, decisionsOf } from "./session-hub.js";

/**
 * The tool gate's rule (architecture.md "Tool batch" step 3): advice may turn an Allow into
 * an Ask, with no rule to suggest or persist; a Deny or an Ask is returned as it is.
 */
export function escalateAllow(
  decision: Decision,
  advice: readonly SeamAdvice<"toolGate">[],
): Decision {
  const first = advice[0];
  if (decision.type !== "allow" || !first) return decision;
  return { type: "ask", reason: first.askReason, suggestedRules: [] };
}

/**
 * The after-call seam, once a call finished and was not cancelled: the uses' notes join the
 * next request as reminders (notes on this result). Never rejects.
 */
export async function noteAfterCall(
  core: DecisionHost,
  call: { readonly id: string; readonly toolName: string; readonly input: unknown },
  result: { readonly text: string; readonly isError: boolean },
  scope: { readonly signal: AbortSignal; readonly turnId: TurnId },
  reminders: Pick<ReminderQueue, "add">,
): Promise<void> {
  const hub = decisionsOf(core);
  if (!hub.joins("afterCall")) return;
  const input = { toolName: call.toolName, input: call.input, ...result };
  const advice = await hub.consult("afterCall", input, scope);
  for (const [i, note] of advice.flatMap((a) => a.notes).entries())
    reminders.add({
      key: `note:${call.id}:${i}`,
      text: `Note on the ${call.toolName} result: ${note}`,
    });
}

/**
 * The tool-gate seam, between the decision (policy plus hooks) and the approval. Only an
 * Allow reaches the uses; with no running use it returns at once. Never rejects.
 */
export async function reviewAtGate(
  core: DecisionHost,
  call: { readonly toolName: string; readonly input: unknown; readonly actions: readonly Action[] },
  decision: Decision,
  signal: AbortSignal,
): Promise<Decision> {
  if (decision.type !== "allow") return decision;
  const hub = decisionsOf(core);
  if (!hub.joins("toolGate")) return decision;
  return escalateAllow(decision, await hub.consult("toolGate", call, { signal }));
}
