import type { Action, Decision } from "@z-engine/policy";
import type { PermissionMode } from "@z-engine/protocol";
import type { SandboxState } from "./session-core.js";

/**
 * Decides a call when the settings turn the sandbox on but it cannot run (issue 38, item
 * 18): commands then run unconfined, so nothing that relied on the sandbox lets them run
 * without a person's yes. A call with a command action is decided as in ask mode when the
 * mode is bypass (the user's allow rules and deny rules still apply; sandbox auto-allow has
 * no sandbox to rely on either), and an ask says why (headless runs deny it, with that
 * reason). Every other call is decided in `mode` as usual. Pure; never throws.
 */
export function decideWithSandbox(
  sandbox: Pick<SandboxState, "unavailable">,
  mode: PermissionMode,
  actions: readonly Action[],
  decideIn: (mode: PermissionMode) => Decision,
): Decision {
  if (sandbox.unavailable === undefined || !actions.some((a) => a.kind === "command"))
    return decideIn(mode);
  const decision = decideIn(mode === "bypass" ? "ask" : mode);
  if (decision.type !== "ask") return decision;
  return {
    ...decision,
    reason: `${decision.reason}; the sandbox is on in the settings but cannot run (${sandbox.unavailable}), so commands run unconfined and need your approval${mode === "bypass" ? " (bypass mode does not apply to them)" : ""}`,
  };
}
