import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { ApprovalDecision, EngineEventOf } from "@z-engine/protocol";

/** The option ids of an approval card. */
export const OPTION = {
  allowOnce: "allow-once",
  allowSession: "allow-session",
  allowProject: "allow-project",
  rejectOnce: "reject-once",
  rejectAlways: "reject-always",
} as const;

/**
 * The options an approval card offers, as ACP permission options: allow once; with a
 * suggested rule, allow it always in this chat (a session rule) or in this project (saved to
 * settings.local.toml); reject once; with a rule, reject it always in this chat. Pure.
 */
export function approvalOptions(event: EngineEventOf<"approvalRequested">): PermissionOption[] {
  const rule = event.suggestedRules[0];
  return [
    { optionId: OPTION.allowOnce, name: "Allow once", kind: "allow_once" },
    ...(rule
      ? ([
          {
            optionId: OPTION.allowSession,
            name: `Always allow ${rule} in this chat`,
            kind: "allow_always",
          },
          {
            optionId: OPTION.allowProject,
            name: `Always allow ${rule} in this project`,
            kind: "allow_always",
          },
        ] as const)
      : []),
    { optionId: OPTION.rejectOnce, name: "Reject", kind: "reject_once" },
    ...(rule
      ? ([
          {
            optionId: OPTION.rejectAlways,
            name: `Always reject ${rule} in this chat`,
            kind: "reject_always",
          },
        ] as const)
      : []),
  ];
}

/** The engine's decision for the client's answer (a cancelled request rejects). Pure. */
export function approvalDecision(
  outcome: RequestPermissionOutcome,
  rule: string | undefined,
): ApprovalDecision {
  if (outcome.outcome !== "selected")
    return { type: "deny", feedback: "The request was cancelled." };
  switch (outcome.optionId) {
    case OPTION.allowOnce:
      return { type: "allowOnce" };
    case OPTION.allowSession:
      return rule ? { type: "allowSession", rule } : { type: "allowOnce" };
    case OPTION.allowProject:
      return rule ? { type: "allowProject", rule } : { type: "allowOnce" };
    default:
      return { type: "deny" };
  }
}
