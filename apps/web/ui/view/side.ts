// The fold's side events: what waits on the user, jobs, checks, checkpoints, settings changes,
// costs, the end of a turn and rewinds.
import type { EventEnvelope } from "@z-engine/protocol";
import type { Draft, Entry, PageView } from "./types.js";
import { minus, moreThan, plus } from "./usage.js";

function withoutType<T extends { type: string }>(e: T): Omit<T, "type"> {
  const { type: _t, ...rest } = e;
  return rest;
}

function applyRewind(
  view: PageView,
  e: Extract<EventEnvelope["event"], { type: "rewound" }>,
  cursor: number,
): void {
  const at = view.entries.findIndex((x) => x.kind === "user" && x.messageId === e.messageId);
  const target = at >= 0 ? view.entries[at] : undefined;
  // The turns whose code is still there: all of them after a conversation rewind, those
  // before the message after a rewind of the code.
  const codeKept =
    e.restore === "conversation" || at < 0 ? view.entries : view.entries.slice(0, at);
  const filesChanged = codeKept.some(
    (x) => x.kind === "turnEnd" && x.badge.status !== "notApplicable",
  );
  const restoredFiles = e.restoredPaths.length;
  const note =
    e.restore === "code"
      ? `Files restored to before this message (${restoredFiles} changed back)`
      : `Rewound ${e.restore === "both" ? "code and conversation" : "the conversation"} to before “${target?.kind === "user" ? target.text.slice(0, 80) : "a message"}”`;
  if (e.restore !== "code" && at >= 0) {
    view.entries = view.entries.slice(0, at);
    view.checkpoints = view.checkpoints.filter((c) =>
      view.entries.some((x) => x.kind === "user" && x.messageId === c.messageId),
    );
  }
  const lastEnd = view.entries.findLast((x) => x.kind === "turnEnd");
  view.badge = lastEnd?.kind === "turnEnd" ? lastEnd.badge : undefined;
  view.rewind = {
    cursor,
    filesChanged,
    ...(e.restore !== "code" && target?.kind === "user" ? { prompt: target.text } : {}),
  };
  view.entries.push({ kind: "divider", key: `r-${cursor}`, text: note });
}

function applyWaiting(view: PageView, envelope: EventEnvelope): boolean {
  const e = envelope.event;
  switch (e.type) {
    case "approvalRequested": {
      const approval = {
        ...withoutType(e),
        ...(envelope.agentId ? { agentId: envelope.agentId } : {}),
      };
      view.approvals = [...view.approvals.filter((a) => a.approvalId !== e.approvalId), approval];
      return true;
    }
    case "approvalResolved":
      view.approvals = view.approvals.filter((a) => a.approvalId !== e.approvalId);
      return true;
    case "questionAsked":
      view.questions = [...view.questions, e.question];
      return true;
    case "questionAnswered":
      view.questions = view.questions.filter((q) => q.id !== e.questionId);
      return true;
    case "planProposed":
      view.plans = [...view.plans, e.plan];
      return true;
    case "planResolved":
      view.plans = view.plans.filter((p) => p.id !== e.planId);
      return true;
    default:
      return false;
  }
}

function applyTurnEnd(
  view: PageView,
  e: Extract<EventEnvelope["event"], { type: "turnFinished" }>,
): void {
  if (view.runningTurn === e.turnId) view.runningTurn = undefined;
  view.badge = e.badge;
  view.approvals = [];
  view.compacting = false;
  const entry: Entry = {
    kind: "turnEnd",
    key: `e-${e.turnId}`,
    ...withoutType(e),
    ...moreThan(view.turnUsage[e.turnId], e.usage),
  };
  view.entries.push(entry);
}

/** Folds a side event into the draft's view. */
export function applySideEvent(draft: Draft, envelope: EventEnvelope, cursor: number): void {
  const view = draft.view;
  const e = envelope.event;
  if (applyWaiting(view, envelope)) return;
  switch (e.type) {
    case "todosUpdated":
      view.todos = e.todos;
      return;
    case "jobUpdated":
      view.jobs = [...view.jobs.filter((j) => j.id !== e.job.id), e.job];
      return;
    case "checkRecorded":
      view.checks = [...view.checks, e.record];
      return;
    case "verificationChanged":
      view.badge = e.badge;
      return;
    case "checkpointCreated":
      view.checkpoints = [...view.checkpoints, e.checkpoint];
      return;
    case "trustRequired":
      view.trust = { projectRoot: e.projectRoot, withheld: e.withheld };
      return;
    case "turnFinished":
      applyTurnEnd(view, e);
      return;
    case "rewound":
      applyRewind(view, e, cursor);
      return;
    case "notice":
      view.entries.push({ kind: "notice", key: `n-${cursor}`, ...withoutType(e) });
      if (e.code.startsWith("trust") && view.trust) view.trust = undefined;
      return;
    case "compactionStarted":
      view.compacting = true;
      return;
    case "compacted":
      view.compacting = false;
      view.entries.push({
        kind: "compaction",
        key: `c-${cursor}`,
        dropped: e.marker.droppedMessages,
        tokensBefore: e.marker.tokensBefore,
        tokensAfter: e.marker.tokensAfter,
      });
      return;
    case "modeChanged":
      view.mode = e.mode;
      return;
    case "modelChanged":
      view.model = e.model;
      return;
    case "effortChanged":
      view.effort = e.effort;
      return;
    case "titleChanged":
      view.title = e.title;
      return;
    case "costUpdated": {
      const who = envelope.agentId ?? "main";
      const spent = minus(e.sessionUsage, view.sessionUsage);
      view.agentUsage[who] = plus(view.agentUsage[who], spent);
      const turn = envelope.turnId;
      if (turn) view.turnUsage[turn] = plus(view.turnUsage[turn], spent);
      view.sessionUsage = e.sessionUsage;
      return;
    }
    case "mcpServerUpdated":
      view.mcpStates = { ...view.mcpStates, [e.server.name]: e.server.state };
      return;
    case "commandOutput":
      view.entries.push({ kind: "output", key: `o-${cursor}`, name: e.name, markdown: e.markdown });
      return;
    default:
      return;
  }
}
