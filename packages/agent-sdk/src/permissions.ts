// `canUseTool`: the engine's approval requests answered by the host's callback.
import type { SessionHandle } from "@z-engine/engine";
import type { ApprovalDecision, ApprovalId, EventEnvelope } from "@z-engine/protocol";
import type { CanUseTool, PermissionResult, PermissionUpdate } from "./types.js";

/** What the asker needs besides the events. */
export interface AskerOptions {
  readonly canUseTool?: CanUseTool;
  /** `dontAsk`: every call the rules leave open is denied without asking. */
  readonly dontAsk: () => boolean;
  readonly signal: AbortSignal;
  readonly warn: (message: string) => void;
}

function ruleText(update: PermissionUpdate): string[] {
  if (update.type !== "addRules" || update.behavior !== "allow") return [];
  return update.rules.map((r) => (r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName));
}

function sameInput(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The engine decision for a host's answer. A changed `updatedInput` goes with the allow: the
 * engine gates the call again on it (a deny rule still holds) before it runs.
 */
export function decisionOf(
  result: PermissionResult,
  input: Record<string, unknown>,
  warn: (message: string) => void,
): ApprovalDecision {
  if (result.behavior === "deny") return { type: "deny", feedback: result.message };
  const changed =
    result.updatedInput !== undefined && !sameInput(result.updatedInput, input)
      ? { updatedInput: result.updatedInput }
      : {};
  const rules = (result.updatedPermissions ?? []).flatMap(ruleText);
  if (rules.length > 1) warn(`only the first of ${rules.length} updatedPermissions rules applies`);
  return rules[0]
    ? { type: "allowSession", rule: rules[0], ...changed }
    : { type: "allowOnce", ...changed };
}

function suggestionsOf(rules: readonly string[]): PermissionUpdate[] {
  return rules.map((rule) => {
    const m = rule.match(/^([^(]+)\((.*)\)$/s);
    return {
      type: "addRules",
      rules: [m ? { toolName: m[1] ?? rule, ruleContent: m[2] ?? "" } : { toolName: rule }],
      behavior: "allow",
      destination: "session",
    };
  });
}

/**
 * Answers the session's approval requests: tool inputs are read from the assistant messages,
 * each request goes to `canUseTool` (denied when there is none, or with `dontAsk`), a throw
 * of the callback denies with its message.
 */
export function approvalAsker(options: AskerOptions) {
  const inputs = new Map<string, Record<string, unknown>>();
  const answer = async (session: SessionHandle, envelope: EventEnvelope) => {
    const e = envelope.event;
    if (e.type !== "approvalRequested") return;
    const input = inputs.get(e.toolCallId) ?? {};
    let decision: ApprovalDecision;
    if (!options.canUseTool || options.dontAsk())
      decision = { type: "deny", feedback: `${e.toolName} needs permission: ${e.reason}` };
    else
      try {
        const result = await options.canUseTool(e.toolName, input, {
          signal: options.signal,
          suggestions: suggestionsOf(e.suggestedRules),
          toolUseID: e.toolCallId,
        });
        decision = decisionOf(result, input, options.warn);
      } catch (error) {
        decision = { type: "deny", feedback: `canUseTool failed: ${(error as Error).message}` };
      }
    session.send({ type: "resolveApproval", approvalId: e.approvalId as ApprovalId, decision });
  };
  return {
    /** Records tool inputs; starts answering an approval request, a question or a plan. */
    onEvent(session: SessionHandle | undefined, envelope: EventEnvelope): void {
      const e = envelope.event;
      if (e.type === "assistantFinished")
        for (const b of e.message.content)
          if (b.type === "toolUse") inputs.set(b.id, (b.input ?? {}) as Record<string, unknown>);
      if (!session) return;
      if (e.type === "approvalRequested") void answer(session, envelope);
      else if (e.type === "questionAsked" || e.type === "planProposed")
        void answerInteraction(session, envelope, options);
    },
  };
}

async function ask(
  options: AskerOptions,
  toolName: string,
  input: Record<string, unknown>,
  id: string,
): Promise<PermissionResult> {
  if (!options.canUseTool || options.dontAsk())
    return { behavior: "deny", message: `${toolName} needs someone to answer` };
  try {
    return await options.canUseTool(toolName, input, {
      signal: options.signal,
      toolUseID: id,
    });
  } catch (error) {
    return { behavior: "deny", message: `canUseTool failed: ${(error as Error).message}` };
  }
}

function answersOf(result: PermissionResult): Record<string, string> {
  const answers = result.behavior === "allow" ? result.updatedInput?.answers : undefined;
  if (typeof answers !== "object" || answers === null) return {};
  return Object.fromEntries(
    Object.entries(answers).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

/**
 * A question (AskUserQuestion) or a plan (ExitPlanMode) goes to `canUseTool` as Claude Code
 * sends them: the answers come back in `updatedInput.answers`; a plan allowed is approved.
 */
async function answerInteraction(
  session: SessionHandle,
  envelope: EventEnvelope,
  options: AskerOptions,
): Promise<void> {
  const e = envelope.event;
  if (e.type === "questionAsked") {
    const result = await ask(
      options,
      "AskUserQuestion",
      { questions: e.question.questions },
      e.question.id,
    );
    const answers = answersOf(result);
    session.send({ type: "answerQuestion", questionId: e.question.id, answers });
  } else if (e.type === "planProposed") {
    const result = await ask(options, "ExitPlanMode", { plan: e.plan.plan }, e.plan.id);
    session.send({
      type: "resolvePlan",
      planId: e.plan.id,
      approved: result.behavior === "allow",
      ...(result.behavior === "deny" ? { feedback: result.message } : {}),
    });
  }
}
