import type { SlashCommand } from "./complete.js";
import type {
  Badge,
  EngineEventOf,
  EventEnvelope,
  PermissionMode,
  Plan,
  Question,
  ToolDisplay,
  TurnOutcome,
  Usage,
} from "@z-engine/protocol";

/** A finished line of the transcript: printed once (ink's `<Static>`), never redrawn. */
export type Item =
  | { readonly id: number; readonly kind: "user"; readonly text: string; readonly steer?: boolean }
  | { readonly id: number; readonly kind: "assistant"; readonly text: string }
  | {
      readonly id: number;
      readonly kind: "tool";
      readonly title: string;
      readonly status: "ok" | "error" | "denied" | "cancelled";
      readonly display?: ToolDisplay;
      readonly durationMs: number;
      readonly agentId?: string;
    }
  | {
      readonly id: number;
      readonly kind: "turnEnd";
      readonly outcome: TurnOutcome;
      readonly badge: Badge;
      readonly usage: Usage;
      readonly durationMs: number;
      readonly reason?: string;
    }
  | { readonly id: number; readonly kind: "info"; readonly text: string }
  /** An engine built-in command's answer (`/cost`), as markdown. */
  | { readonly id: number; readonly kind: "output"; readonly name: string; readonly text: string }
  | {
      readonly id: number;
      readonly kind: "notice";
      readonly level: "info" | "warning" | "error";
      readonly text: string;
    };

/** A tool call that is still running. */
export interface LiveTool {
  readonly toolCallId: string;
  readonly title: string;
  readonly progress: string;
  readonly agentId?: string;
}

export type Approval = EngineEventOf<"approvalRequested"> & { readonly agentId?: string };

/** A message the user sent in this session: a rewind target. */
export interface Target {
  readonly messageId: string;
  readonly text: string;
}

/** Everything the screen shows, folded from the session's events. */
export interface View {
  readonly items: readonly Item[];
  /** The assistant text streaming now. */
  readonly live: string;
  readonly tools: readonly LiveTool[];
  readonly approvals: readonly Approval[];
  readonly questions: readonly Question[];
  readonly plans: readonly Plan[];
  readonly trust?: { readonly projectRoot: string; readonly withheld: readonly string[] };
  readonly running: boolean;
  readonly mode: PermissionMode;
  readonly model: string;
  readonly usage: Usage;
  readonly badge?: Badge;
  readonly targets: readonly Target[];
  /** The session's `/` commands (its catalog), for completion; empty until the session is open. */
  readonly commands: readonly SlashCommand[];
}

/** The view before any event. */
export function initialView(init: {
  mode: PermissionMode;
  model: string;
  usage: Usage;
  items?: Item[];
  targets?: Target[];
}): View {
  return {
    items: init.items ?? [],
    live: "",
    tools: [],
    approvals: [],
    questions: [],
    plans: [],
    running: false,
    mode: init.mode,
    model: init.model,
    usage: init.usage,
    targets: init.targets ?? [],
    commands: [],
  };
}

let nextId = 1;
/** A new item id (ids only need to be unique within the process). */
export function itemId(): number {
  return nextId++;
}

/** An item without its id (the view gives it one). */
type NewItem = Item extends infer I ? (I extends Item ? Omit<I, "id"> : never) : never;

function add(view: View, item: NewItem): View {
  return { ...view, items: [...view.items, { ...item, id: itemId() } as Item] };
}

/** Moves streamed text into the transcript (when a message ends, or before a tool line). */
function flushLive(view: View): View {
  if (view.live.trim() === "") return { ...view, live: "" };
  return { ...add(view, { kind: "assistant", text: view.live.trimEnd() }), live: "" };
}

const without = <T>(list: readonly T[], drop: (x: T) => boolean): T[] =>
  list.filter((x) => !drop(x));

function subagentEvent(view: View, envelope: EventEnvelope): View {
  const { event, agentId } = envelope;
  const tag = agentId ? { agentId } : {};
  switch (event.type) {
    case "approvalRequested":
      return { ...view, approvals: [...view.approvals, { ...event, ...tag }] };
    case "approvalResolved":
      return {
        ...view,
        approvals: without(view.approvals, (a) => a.approvalId === event.approvalId),
      };
    case "toolStarted":
      return {
        ...view,
        tools: [
          ...view.tools,
          { toolCallId: event.toolCallId, title: event.title, progress: "", ...tag },
        ],
      };
    case "toolFinished":
      return { ...view, tools: without(view.tools, (t) => t.toolCallId === event.toolCallId) };
    default:
      return view;
  }
}

function toolEvent(view: View, envelope: EventEnvelope): View {
  const { event } = envelope;
  if (event.type === "toolStarted") {
    const flushed = flushLive(view);
    const tool = { toolCallId: event.toolCallId, title: event.title, progress: "" };
    return { ...flushed, tools: [...flushed.tools, tool] };
  }
  if (event.type === "toolProgress") {
    const tools = view.tools.map((t) =>
      t.toolCallId === event.toolCallId
        ? { ...t, progress: (t.progress + event.text).slice(-2000) }
        : t,
    );
    return { ...view, tools };
  }
  if (event.type !== "toolFinished") return view;
  const started = view.tools.find((t) => t.toolCallId === event.toolCallId);
  const next = { ...view, tools: without(view.tools, (t) => t.toolCallId === event.toolCallId) };
  return add(next, {
    kind: "tool",
    title: started?.title ?? event.toolName,
    status: event.status,
    ...(event.display ? { display: event.display } : {}),
    durationMs: event.durationMs,
  });
}

function turnEvent(view: View, envelope: EventEnvelope): View {
  const { event } = envelope;
  switch (event.type) {
    case "turnStarted": {
      const targets = [...view.targets, { messageId: event.userMessageId, text: event.prompt }];
      return { ...add(view, { kind: "user", text: event.prompt }), running: true, targets };
    }
    case "turnFinished": {
      const flushed = flushLive({ ...view, tools: [], approvals: [], running: false });
      return {
        ...add(flushed, {
          kind: "turnEnd",
          outcome: event.outcome,
          badge: event.badge,
          usage: event.usage,
          durationMs: event.durationMs,
          ...(event.reason === undefined ? {} : { reason: event.reason }),
        }),
        badge: event.badge,
        questions: [],
        plans: [],
      };
    }
    case "rewound": {
      const at = view.targets.findIndex((t) => t.messageId === event.messageId);
      const targets = event.restore === "code" || at < 0 ? view.targets : view.targets.slice(0, at);
      const what = { code: "code", conversation: "conversation", both: "code and conversation" };
      const files = event.restoredPaths.length;
      const text = `Rewound ${what[event.restore]} to before "${short(view.targets[at]?.text ?? "")}"${
        event.restore === "conversation" ? "" : ` (${files} file${files === 1 ? "" : "s"} restored)`
      }`;
      return { ...add(view, { kind: "info", text }), targets };
    }
    default:
      return view;
  }
}

/** A one-line excerpt of a prompt, at most 50 characters. */
export function short(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 50 ? `${line.slice(0, 49)}…` : line;
}

/** Folds one event into the view. Pure; unknown events leave it as it was. */
export function reduce(view: View, envelope: EventEnvelope): View {
  if (envelope.agentId) return subagentEvent(view, envelope);
  const { event } = envelope;
  switch (event.type) {
    case "textDelta":
      return { ...view, live: view.live + event.text };
    case "assistantFinished":
      return flushLive(view);
    case "toolStarted":
    case "toolProgress":
    case "toolFinished":
      return toolEvent(view, envelope);
    case "approvalRequested":
      return { ...view, approvals: [...view.approvals, event] };
    case "approvalResolved":
      return {
        ...view,
        approvals: without(view.approvals, (a) => a.approvalId === event.approvalId),
      };
    case "questionAsked":
      return { ...view, questions: [...view.questions, event.question] };
    case "questionAnswered":
      return { ...view, questions: without(view.questions, (q) => q.id === event.questionId) };
    case "planProposed":
      return { ...view, plans: [...view.plans, event.plan] };
    case "planResolved":
      return { ...view, plans: without(view.plans, (p) => p.id === event.planId) };
    case "trustRequired":
      return { ...view, trust: { projectRoot: event.projectRoot, withheld: event.withheld } };
    case "modeChanged":
      return { ...view, mode: event.mode };
    case "modelChanged":
      return { ...view, model: event.model };
    case "assistantStarted":
      return { ...view, model: event.model };
    case "costUpdated":
      return { ...view, usage: event.sessionUsage };
    case "notice":
      return add(view, { kind: "notice", level: event.level, text: event.message });
    case "retrying":
      return add(view, {
        kind: "notice",
        level: "warning",
        text: `retrying (${event.attempt}/${event.maxAttempts}): ${event.message}`,
      });
    case "commandOutput":
      return add(view, { kind: "output", name: event.name, text: event.markdown });
    case "compacted":
      return add(view, { kind: "info", text: "Conversation compacted" });
    default:
      return turnEvent(view, envelope);
  }
}

/** The view with the trust prompt answered or dismissed. */
export function dismissTrust(view: View): View {
  const { trust: _, ...rest } = view;
  return rest;
}
