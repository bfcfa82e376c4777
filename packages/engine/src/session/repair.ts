import { closingRecords, type OpenedSession } from "@z-engine/store";
import type { EngineSession } from "./session.js";

/**
 * Closes what a crash left open (design.md §3: the outcome `interrupted` is a turn found
 * unfinished when a session is reopened) and reports what the store repaired. Every closing
 * record is appended before the notice that tells of it.
 */
export async function repairCrash(session: EngineSession, opened: OpenedSession): Promise<void> {
  const { report, replay } = opened;
  const j = session.journal;
  for (const n of report.notices) await j.notice(n.level, n.code, n.message);
  if (report.damage.length > 0) {
    const lines = report.damage
      .slice(0, 5)
      .map((d) => `line ${d.line}: ${d.reason}`)
      .join("; ");
    await j.notice(
      "warning",
      "log.damaged",
      `${report.damage.length} damaged line(s) of the log were skipped (${lines})`,
    );
  }
  const resume = replay.resume;
  if (resume.clean) return;
  const badge = {
    status: "unverified" as const,
    reason: "the turn was interrupted before it finished",
    checks: [],
  };
  for (const record of closingRecords(resume, { badge, ts: session.clock() }))
    await session.log.append(record);
  for (const agentId of resume.runningAgents)
    session.reminders.add({
      key: `agent-interrupted:${agentId}`,
      text: `Agent ${agentId} was interrupted when the session stopped; its transcript is kept. If its work is still needed, continue it with the Agent tool and resume: "${agentId}".`,
    });
  const parts = [
    resume.unfinishedTurn ? "an unfinished turn was closed as interrupted" : "",
    resume.pendingToolCalls.length > 0
      ? `${resume.pendingToolCalls.length} unanswered tool call(s) got "interrupted" results`
      : "",
    resume.runningAgents.length > 0
      ? `${resume.runningAgents.length} running subagent(s) were marked failed`
      : "",
    resume.openQuestions.length + resume.openPlans.length > 0
      ? "open questions and plans were dismissed"
      : "",
    resume.openApprovals.length > 0 ? "open approvals were cancelled" : "",
  ].filter(Boolean);
  await j.notice(
    "warning",
    "session.resumedAfterCrash",
    `The session did not close cleanly: ${parts.join("; ")}.`,
  );
}
