import type { EventEnvelope } from "@z-engine/protocol";
import {
  approvalResolved,
  checkRecorded,
  flushLive,
  streamText,
  streamThinking,
  subagentEvent,
  toolEvent,
} from "./view-tools.js";
import { add, short, type View, without } from "./view-types.js";

export type {
  Approval,
  CheckLine,
  Header,
  Item,
  LiveTool,
  NewItem,
  Target,
  View,
} from "./view-types.js";
export { add, dismissTrust, initialView, itemId, short } from "./view-types.js";

// The fold is pure and knows nothing of rendering, so that a host other than the terminal (the
// web page) can share it later.

function turnEvent(view: View, envelope: EventEnvelope): View {
  const { event } = envelope;
  switch (event.type) {
    case "turnStarted": {
      const targets = [...view.targets, { messageId: event.userMessageId, text: event.prompt }];
      const item = { kind: "user" as const, text: event.prompt, messageId: event.userMessageId };
      return { ...add(view, item), running: true, targets };
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
        answered: {},
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

function stateEvent(view: View, envelope: EventEnvelope): View {
  const { event } = envelope;
  switch (event.type) {
    case "trustRequired":
      return { ...view, trust: { projectRoot: event.projectRoot, withheld: event.withheld } };
    case "modeChanged":
      return { ...view, mode: event.mode };
    case "modelChanged":
      return { ...view, model: event.model };
    case "assistantStarted": {
      const window = event.contextWindow ?? view.context?.window;
      return {
        ...view,
        model: event.model || view.model,
        ...(window ? { context: { window, used: view.context?.used ?? 0 } } : {}),
      };
    }
    case "assistantFinished": {
      const flushed = flushLive(view);
      const u = event.usage;
      const used = u.input + u.cacheRead + u.cacheWrite + u.output;
      if (!view.context || used === 0) return flushed;
      return { ...flushed, context: { window: view.context.window, used } };
    }
    case "costUpdated":
      return { ...view, usage: event.sessionUsage };
    default:
      return turnEvent(view, envelope);
  }
}

/** Folds one event into the view. Pure; unknown events leave it as it was. */
export function reduce(view: View, envelope: EventEnvelope): View {
  if (envelope.agentId) return subagentEvent(view, envelope);
  const { event } = envelope;
  switch (event.type) {
    case "textDelta":
      return streamText(view, event.text);
    case "thinkingDelta":
      return streamThinking(view, event.text);
    case "toolStarted":
    case "toolProgress":
    case "toolFinished":
      return toolEvent(view, envelope);
    case "checkRecorded":
      return checkRecorded(view, envelope);
    case "approvalRequested":
      return { ...view, approvals: [...view.approvals, event] };
    case "approvalResolved":
      return approvalResolved(view, envelope);
    case "questionAsked":
      return { ...view, questions: [...view.questions, event.question] };
    case "questionAnswered":
      return { ...view, questions: without(view.questions, (q) => q.id === event.questionId) };
    case "planProposed":
      return { ...view, plans: [...view.plans, event.plan] };
    case "planResolved":
      return { ...view, plans: without(view.plans, (p) => p.id === event.planId) };
    case "notice":
      return add(noticeState(view, event.code), {
        kind: "notice",
        level: event.level,
        text: event.message,
      });
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
      return stateEvent(view, envelope);
  }
}

/** What a notice tells the view besides its line: trusting the folder. */
function noticeState(view: View, code: string): View {
  return code === "trust.trusted" ? { ...view, trusted: true } : view;
}
