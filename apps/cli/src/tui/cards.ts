import type { ApprovalDecision, PermissionMode, Question, RewindRestore } from "@z-engine/protocol";
import type { Approval, View } from "./view.js";

/** One choice of a card. */
export interface Choice<T> {
  readonly label: string;
  readonly value: T;
}

/**
 * The choices of an approval card, in the order the keys 1..4 pick them. In a folder that is
 * not trusted, saving a rule for the project needs trust, and the third choice says so: it
 * trusts the folder, then saves the rule.
 */
export function approvalChoices(approval: Approval, trusted = true): Choice<ApprovalDecision>[] {
  const rule = approval.suggestedRules[0];
  const project = trusted
    ? `Always allow in this project: ${rule}`
    : `Trust this folder and always allow in it: ${rule} (saving a rule needs trust)`;
  return [
    { label: "Allow once", value: { type: "allowOnce" } },
    ...(rule
      ? [
          {
            label: `Always allow in this chat: ${rule}`,
            value: { type: "allowSession", rule },
          } as const,
          { label: project, value: { type: "allowProject", rule } } as const,
        ]
      : []),
    {
      label: "Deny (type feedback for the model first, or leave it empty)",
      value: { type: "deny" },
    },
  ];
}

/** The choices of a plan review: approve into a mode, or keep planning. */
export const PLAN_CHOICES: Choice<PermissionMode | null>[] = [
  { label: "Approve and accept edits", value: "acceptEdits" },
  { label: "Approve and ask before edits", value: "ask" },
  { label: "Keep planning (type feedback first)", value: null },
];

/** The choices of the trust prompt. */
export const TRUST_CHOICES: Choice<boolean>[] = [
  { label: "Trust this folder (its project settings apply)", value: true },
  { label: "Not now (only the user settings apply)", value: false },
];

/** What a rewind restores. */
export const REWIND_CHOICES: Choice<RewindRestore>[] = [
  { label: "Code and conversation", value: "both" },
  { label: "Conversation only", value: "conversation" },
  { label: "Code only", value: "code" },
];

/** The choices of one question of an AskUserQuestion card. */
export function questionChoices(question: Question, step: number): Choice<string>[] {
  const q = question.questions[step];
  return (q?.options ?? []).map((o) => ({
    label: o.description ? `${o.label}: ${o.description}` : o.label,
    value: o.label,
  }));
}

/** Which card takes the keys: the trust prompt first, then approvals, questions, plans. */
export type ActiveCard = "trust" | "approval" | "question" | "plan" | undefined;

export function activeCard(view: View): ActiveCard {
  if (view.trust) return "trust";
  if (view.approvals.length > 0) return "approval";
  if (view.questions.length > 0) return "question";
  if (view.plans.length > 0) return "plan";
  return undefined;
}

/** How many choices the active card has. */
export function choiceCount(view: View, card: ActiveCard, focus: number, step: number): number {
  switch (card) {
    case "trust":
      return TRUST_CHOICES.length;
    case "approval": {
      const a = view.approvals[focus % view.approvals.length];
      return a ? approvalChoices(a, view.trusted).length : 0;
    }
    case "question":
      return view.questions[0] ? questionChoices(view.questions[0], step).length : 0;
    case "plan":
      return PLAN_CHOICES.length;
    default:
      return 0;
  }
}
