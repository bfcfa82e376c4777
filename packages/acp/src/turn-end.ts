import type { PromptResponse, SessionUpdate } from "@agentclientprotocol/sdk";
import { RequestError } from "@agentclientprotocol/sdk";
import { badgeLabel, type TurnSummary } from "@z-engine/engine";
import type { StopReason } from "@z-engine/protocol";

/** The key of this agent's own data in `_meta` (ACP's extension point). */
export const META_KEY = "z-engine";

/**
 * ACP's stop reason for a turn: `end_turn` for a completed turn (`max_tokens` or `refusal`
 * when its last message stopped so), `max_turn_requests` for an exhausted budget (turns or
 * cost), `cancelled` for a cancelled or interrupted one; a turn no model ran (a built-in
 * command, a prompt a hook blocked) ends as `end_turn`. Undefined for a failed turn.
 */
export function stopReasonOf(
  summary: TurnSummary,
  last: StopReason | undefined,
): PromptResponse["stopReason"] | undefined {
  switch (summary.outcome) {
    case "completed":
      return last === "maxTokens" ? "max_tokens" : last === "refusal" ? "refusal" : "end_turn";
    case "budgetExhausted":
      return "max_turn_requests";
    case "cancelled":
    case "interrupted":
      return "cancelled";
    case "failed":
      return undefined;
    default:
      return "end_turn";
  }
}

/** The turn's record for `_meta`: its id, outcome, badge, usage and reason. */
export function turnMeta(summary: TurnSummary): Record<string, unknown> {
  return {
    [META_KEY]: {
      turnId: summary.turnId,
      outcome: summary.outcome,
      badge: summary.badge,
      usage: summary.usage,
      durationMs: summary.durationMs,
      ...(summary.reason ? { reason: summary.reason } : {}),
    },
  };
}

/**
 * The badge as the turn's final message (`Verified: npm:test passed after the last change.`);
 * none for a turn that changed no files (not applicable).
 */
export function badgeMessage(summary: TurnSummary): SessionUpdate | undefined {
  if (summary.badge.status === "notApplicable") return undefined;
  return {
    sessionUpdate: "agent_message_chunk",
    content: {
      type: "text",
      text: `\n\n**${badgeLabel(summary.badge)}**: ${summary.badge.reason}`,
    },
    _meta: { [META_KEY]: { badge: summary.badge } },
  };
}

/** The answer to `session/prompt` for a finished turn; a failed one is an error with its reason. */
export function promptResponse(summary: TurnSummary, last: StopReason | undefined): PromptResponse {
  const stopReason = stopReasonOf(summary, last);
  if (stopReason === undefined)
    throw new RequestError(
      -32603,
      `The turn failed: ${summary.reason ?? "unknown reason"}`,
      turnMeta(summary),
    );
  return { stopReason, _meta: turnMeta(summary) };
}
