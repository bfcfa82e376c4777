// The page's view of one session, folded from the stream of events. Each transcript entry is
// replaced (never mutated) when it changes, so rows re-render only when their entry changed.
import type {
  Badge,
  CheckpointInfo,
  CheckRecord,
  EngineEventOf,
  EventEnvelope,
  JobInfo,
  Plan,
  Question,
  TodoItem,
  ToolDisplay,
  Usage,
} from "@z-engine/protocol";

export interface StreamItem {
  readonly cursor: number;
  readonly replayed: boolean;
  readonly envelope: EventEnvelope;
}

export type Entry =
  | { kind: "user"; key: string; messageId: string; turnId: string; text: string }
  | {
      kind: "assistant";
      key: string;
      messageId: string;
      text: string;
      thinking: string;
      done: boolean;
      agentId?: string;
    }
  | {
      kind: "tool";
      key: string;
      toolCallId: string;
      name: string;
      title: string;
      input: unknown;
      progress: string;
      status: "running" | "ok" | "error" | "denied" | "cancelled";
      display?: ToolDisplay;
      durationMs?: number;
      agentId?: string;
    }
  | { kind: "notice"; key: string; level: string; code: string; message: string }
  | {
      kind: "turnEnd";
      key: string;
      turnId: string;
      outcome: string;
      usage: Usage;
      badge: Badge;
      durationMs: number;
      reason?: string;
      /** What every agent of the turn spent (its subagents too), when that is more than `usage`. */
      allAgents?: Usage;
    }
  | { kind: "divider"; key: string; text: string }
  | { kind: "output"; key: string; name: string; markdown: string };

export type PendingApproval = Omit<EngineEventOf<"approvalRequested">, "type">;

export interface SessionView {
  entries: Entry[];
  approvals: PendingApproval[];
  questions: Question[];
  plans: Plan[];
  todos: TodoItem[];
  jobs: JobInfo[];
  checks: CheckRecord[];
  checkpoints: CheckpointInfo[];
  badge?: Badge;
  trust?: { projectRoot: string; withheld: string[] };
  mode?: string;
  model?: string;
  effort?: string;
  title?: string;
  sessionUsage?: Usage;
  runningTurn?: string;
  /**
   * Usage per agent (the main one is "main"): each `costUpdated` grows the session's total by
   * what one response spent, and its envelope names the agent that spent it.
   */
  agentUsage: Record<string, Usage>;
  /** Usage per turn id over every agent, from the same `costUpdated` steps. */
  turnUsage: Record<string, Usage>;
  lastCursor: number;
}

export function emptyView(): SessionView {
  return {
    entries: [],
    approvals: [],
    questions: [],
    plans: [],
    todos: [],
    jobs: [],
    checks: [],
    checkpoints: [],
    agentUsage: {},
    turnUsage: {},
    lastCursor: -1,
  };
}

function replaceEntry(view: SessionView, key: string, change: (e: Entry) => Entry): boolean {
  for (let i = view.entries.length - 1; i >= 0; i--) {
    const entry = view.entries[i];
    if (entry?.key === key) {
      view.entries[i] = change(entry);
      return true;
    }
  }
  return false;
}

function textOf(blocks: ReadonlyArray<{ type: string; text?: string; thinking?: string }>) {
  let text = "";
  let thinking = "";
  for (const b of blocks) {
    if (b.type === "text" && b.text) text += b.text;
    if (b.type === "thinking" && b.thinking) thinking += b.thinking;
  }
  return { text, thinking };
}

/** Applies one item; items at or below the last applied cursor are ignored (no doubles). */
export function apply(view: SessionView, item: StreamItem): boolean {
  if (item.cursor <= view.lastCursor) return false;
  view.lastCursor = item.cursor;
  applyEvent(view, item.envelope);
  return true;
}

function applyEvent(view: SessionView, envelope: EventEnvelope): void {
  const e = envelope.event;
  const agentId = envelope.agentId;
  switch (e.type) {
    case "turnStarted":
      view.runningTurn = e.turnId;
      view.entries.push({
        kind: "user",
        key: `u-${e.userMessageId}`,
        messageId: e.userMessageId,
        turnId: e.turnId,
        text: e.prompt,
      });
      return;
    case "assistantStarted":
      if (!replaceEntry(view, `a-${e.messageId}`, (x) => x)) {
        view.entries.push({
          kind: "assistant",
          key: `a-${e.messageId}`,
          messageId: e.messageId,
          text: "",
          thinking: "",
          done: false,
          ...(agentId ? { agentId } : {}),
        });
      }
      return;
    case "textDelta":
    case "thinkingDelta": {
      const field = e.type === "textDelta" ? "text" : "thinking";
      replaceEntry(view, `a-${e.messageId}`, (x) =>
        x.kind === "assistant" ? { ...x, [field]: x[field] + e.text } : x,
      );
      return;
    }
    case "assistantFinished": {
      const { text, thinking } = textOf(e.message.content);
      const key = `a-${e.message.id}`;
      const found = replaceEntry(view, key, (x) =>
        x.kind === "assistant" ? { ...x, text, thinking, done: true } : x,
      );
      if (!found) {
        view.entries.push({
          kind: "assistant",
          key,
          messageId: e.message.id,
          text,
          thinking,
          done: true,
        });
      }
      return;
    }
    case "toolStarted":
      if (!replaceEntry(view, `t-${e.toolCallId}`, (x) => x)) {
        view.entries.push({
          kind: "tool",
          key: `t-${e.toolCallId}`,
          toolCallId: e.toolCallId,
          name: e.toolName,
          title: e.title,
          input: e.input,
          progress: "",
          status: "running",
          ...(agentId ? { agentId } : {}),
        });
      }
      return;
    case "toolProgress":
      replaceEntry(view, `t-${e.toolCallId}`, (x) =>
        x.kind === "tool" ? { ...x, progress: x.progress + e.text } : x,
      );
      return;
    case "toolFinished": {
      const done = { status: e.status, display: e.display, durationMs: e.durationMs };
      const found = replaceEntry(view, `t-${e.toolCallId}`, (x) =>
        x.kind === "tool" ? { ...x, ...done } : x,
      );
      if (!found) {
        view.entries.push({
          kind: "tool",
          key: `t-${e.toolCallId}`,
          toolCallId: e.toolCallId,
          name: e.toolName,
          title: e.toolName,
          input: undefined,
          progress: "",
          ...done,
        });
      }
      return;
    }
    default:
      applySideEvent(view, envelope);
  }
}

function applySideEvent(view: SessionView, envelope: EventEnvelope): void {
  const e = envelope.event;
  switch (e.type) {
    case "approvalRequested": {
      const { type: _t, ...approval } = e;
      view.approvals = [...view.approvals.filter((a) => a.approvalId !== e.approvalId), approval];
      return;
    }
    case "approvalResolved":
      view.approvals = view.approvals.filter((a) => a.approvalId !== e.approvalId);
      return;
    case "questionAsked":
      view.questions = [...view.questions, e.question];
      return;
    case "questionAnswered":
      view.questions = view.questions.filter((q) => q.id !== e.questionId);
      return;
    case "planProposed":
      view.plans = [...view.plans, e.plan];
      return;
    case "planResolved":
      view.plans = view.plans.filter((p) => p.id !== e.planId);
      return;
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
      if (view.runningTurn === e.turnId) view.runningTurn = undefined;
      view.badge = e.badge;
      view.approvals = [];
      view.entries.push({
        kind: "turnEnd",
        key: `e-${e.turnId}`,
        ...withoutType(e),
        ...moreThan(view.turnUsage[e.turnId], e.usage),
      });
      return;
    case "rewound":
      applyRewind(view, e.messageId, e.restore, e.restoredPaths.length);
      return;
    case "notice":
      view.entries.push({
        kind: "notice",
        key: `n-${envelope.seq}-${view.lastCursor}`,
        ...withoutType(e),
      });
      if (e.code.startsWith("trust") && view.trust) view.trust = undefined;
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
      view.agentUsage = { ...view.agentUsage, [who]: plus(view.agentUsage[who], spent) };
      const turn = envelope.turnId;
      if (turn) view.turnUsage[turn] = plus(view.turnUsage[turn], spent);
      view.sessionUsage = e.sessionUsage;
      return;
    }
    case "commandOutput":
      view.entries.push({
        kind: "output",
        key: `o-${view.lastCursor}`,
        name: e.name,
        markdown: e.markdown,
      });
      return;
    default:
      return;
  }
}

const USAGE_KEYS = ["input", "output", "cacheRead", "cacheWrite", "costUsd"] as const;

function minus(a: Usage, b: Usage | undefined): Usage {
  const out = { ...a };
  for (const k of USAGE_KEYS) out[k] = a[k] - (b?.[k] ?? 0);
  return out;
}

function plus(a: Usage | undefined, b: Usage): Usage {
  const out = { ...b };
  for (const k of USAGE_KEYS) out[k] = (a?.[k] ?? 0) + b[k];
  return out;
}

function moreThan(all: Usage | undefined, own: Usage): { allAgents?: Usage } {
  if (!all) return {};
  const tokens = (u: Usage) => u.input + u.output + u.cacheRead + u.cacheWrite;
  return tokens(all) > tokens(own) || all.costUsd > own.costUsd ? { allAgents: all } : {};
}

function withoutType<T extends { type: string }>(e: T): Omit<T, "type"> {
  const { type: _t, ...rest } = e;
  return rest;
}

function applyRewind(view: SessionView, messageId: string, restore: string, files: number): void {
  const at = view.entries.findIndex((x) => x.kind === "user" && x.messageId === messageId);
  const note =
    restore === "code"
      ? `Files restored to before this message (${files} changed back)`
      : `Rewound ${restore === "both" ? "code and conversation" : "the conversation"} to before a message`;
  if (restore !== "code" && at >= 0) {
    view.entries = view.entries.slice(0, at);
    view.checkpoints = view.checkpoints.filter((c) =>
      view.entries.some((x) => x.kind === "user" && x.messageId === c.messageId),
    );
  }
  view.entries.push({ kind: "divider", key: `r-${view.lastCursor}`, text: note });
}
