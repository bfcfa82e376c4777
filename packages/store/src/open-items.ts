import type { Plan, Question } from "@z-engine/protocol";
import type { LogRecord, LogRecordOf } from "./records.js";
import type { ResumeReport, ReplayState } from "./replay-types.js";

/** What a session left open: questions, plans and approvals not yet answered, running agents. */
export class OpenItems {
  private readonly questions = new Map<string, Question>();
  private readonly plans = new Map<string, Plan>();
  private readonly approvals = new Map<string, LogRecordOf<"approvalRequested">>();
  private readonly agents = new Map<string, LogRecordOf<"agentStarted">>();

  /** Applies one record (others are ignored). */
  apply(record: LogRecord): void {
    switch (record.kind) {
      case "questionAsked":
        this.questions.set(record.question.id, record.question);
        return;
      case "questionAnswered":
        this.questions.delete(record.questionId);
        return;
      case "planProposed":
        this.plans.set(record.plan.id, record.plan);
        return;
      case "planResolved":
        this.plans.delete(record.planId);
        return;
      case "approvalRequested":
        this.approvals.set(record.approvalId, record);
        return;
      case "approvalResolved":
        this.approvals.delete(record.approvalId);
        return;
      case "agentStarted":
        this.agents.set(record.agentId, record);
        return;
      case "agentFinished":
        this.agents.delete(record.agentId);
        return;
      default:
        return;
    }
  }

  /** Starts over from a state's open items (a resume point's). */
  restore(state: ReplayState): void {
    const { openQuestions, openPlans, openApprovals, runningAgents } = state;
    reset(
      this.questions,
      openQuestions.map((q) => [q.id, q]),
    );
    reset(
      this.plans,
      openPlans.map((p) => [p.id, p]),
    );
    reset(
      this.approvals,
      openApprovals.map((a) => [a.approvalId, a]),
    );
    reset(
      this.agents,
      runningAgents.map((a) => [a.agentId, a]),
    );
  }

  /** The open items now, as the state lists them (copies). */
  lists(): Pick<ReplayState, "openQuestions" | "openPlans" | "openApprovals" | "runningAgents"> {
    return {
      openQuestions: [...this.questions.values()],
      openPlans: [...this.plans.values()],
      openApprovals: [...this.approvals.values()],
      runningAgents: [...this.agents.values()],
    };
  }
}

function reset<V>(map: Map<string, V>, entries: [string, V][]): void {
  map.clear();
  for (const [k, v] of entries) map.set(k, v);
}

/** What a resume finds unfinished in `state`, besides the tool calls still pending. */
export function resumeReportOf(
  state: ReplayState,
  pendingToolCalls: ResumeReport["pendingToolCalls"],
): ResumeReport {
  const unfinishedTurn = state.lastTurn?.status === "running" ? state.lastTurn.turnId : null;
  const report = {
    unfinishedTurn,
    pendingToolCalls,
    runningAgents: state.runningAgents.map((a) => a.agentId),
    openApprovals: state.openApprovals.map((a) => ({
      approvalId: a.approvalId,
      toolCallId: a.toolCallId,
    })),
    openQuestions: state.openQuestions.map((q) => q.id),
    openPlans: state.openPlans.map((p) => p.id),
  };
  const clean =
    unfinishedTurn === null &&
    report.pendingToolCalls.length === 0 &&
    report.runningAgents.length === 0 &&
    report.openApprovals.length === 0 &&
    report.openQuestions.length === 0 &&
    report.openPlans.length === 0;
  return { ...report, clean };
}
