import {
  type Badge,
  emptyUsage,
  type MessageId,
  newMessageId,
  type ToolResultBlock,
} from "@z-engine/protocol";
import { type LogRecord, logRecord } from "./records.js";
import type { ResumeReport } from "./replay.js";

/** The text of the result given to a tool call found without one on resume. */
export const INTERRUPTED_TOOL_RESULT =
  "Interrupted: the session ended before this tool call finished.";

/** Options of {@link closingRecords}. */
export interface ClosingOptions {
  /** The badge of the interrupted turn (the engine computes it from its check records). */
  readonly badge: Badge;
  readonly ts?: number;
  /** Id of the message carrying the "interrupted" results (default: a new one). */
  readonly messageId?: MessageId;
}

/**
 * The records that close what a resume report found open, in the order to append them:
 * one user message answering every pending tool call with an "interrupted" error result,
 * cancelled approvals, failed subagents, dismissed questions and plans, and the unfinished
 * turn ended as `interrupted`. Empty for a clean report. Appending them and replaying gives a
 * clean report. Never throws.
 */
export function closingRecords(report: ResumeReport, options: ClosingOptions): LogRecord[] {
  const ts = options.ts ?? Date.now();
  const out: LogRecord[] = [];
  if (report.pendingToolCalls.length > 0) {
    const content: ToolResultBlock[] = report.pendingToolCalls.map((call) => ({
      type: "toolResult",
      toolUseId: call.toolCallId,
      content: [{ type: "text", text: INTERRUPTED_TOOL_RESULT }],
      isError: true,
    }));
    const message = { id: options.messageId ?? newMessageId(), role: "user" as const, content };
    const turnId = report.unfinishedTurn ?? undefined;
    out.push(logRecord("message", turnId ? { message, turnId } : { message }, ts));
  }
  for (const approval of report.openApprovals) {
    out.push(
      logRecord(
        "approvalResolved",
        {
          approvalId: approval.approvalId,
          toolCallId: approval.toolCallId,
          decision: { type: "deny", feedback: "interrupted" },
          by: "cancelled",
          reason: "the session ended before the approval was answered",
        },
        ts,
      ),
    );
  }
  for (const agentId of report.runningAgents) {
    out.push(logRecord("agentFinished", { agentId, status: "failed", reason: "interrupted" }, ts));
  }
  for (const questionId of report.openQuestions) {
    out.push(logRecord("questionAnswered", { questionId, answers: {}, dismissed: true }, ts));
  }
  for (const planId of report.openPlans) {
    out.push(logRecord("planResolved", { planId, approved: false, dismissed: true }, ts));
  }
  if (report.unfinishedTurn !== null) {
    out.push(
      logRecord(
        "turnEnded",
        {
          turnId: report.unfinishedTurn,
          outcome: "interrupted",
          usage: emptyUsage(),
          badge: options.badge,
          durationMs: 0,
          reason: "the session ended while the turn was running",
        },
        ts,
      ),
    );
  }
  return out;
}
