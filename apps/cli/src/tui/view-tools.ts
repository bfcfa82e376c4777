import type { CheckRecord, EventEnvelope } from "@z-engine/protocol";
import { splitFinished } from "./live-text.js";
import { add, type CheckLine, type View, without } from "./view-types.js";

/** A check record as a transcript line keeps it. */
export function checkLine(record: CheckRecord): CheckLine {
  return {
    checkId: record.checkId,
    command: record.command,
    passed: record.passed,
    exitCode: record.exitCode,
    counts: record.counts,
    outputTail: record.outputTail,
  };
}

/** Moves streamed thinking into the transcript (its text begins, or the message ends). */
export function flushThinking(view: View): View {
  if (view.thinking === "") return view;
  const text = view.thinking.trim();
  const next = { ...view, thinking: "" };
  return text === "" ? next : add(next, { kind: "thinking", text });
}

/** Streamed thinking: kept live while it streams, when `show_thinking` is on; else dropped. */
export function streamThinking(view: View, text: string): View {
  return view.showThinking ? { ...view, thinking: view.thinking + text } : view;
}

/** Moves streamed text into the transcript (when a message ends, or before a tool line). */
export function flushLive(view: View): View {
  const thought = flushThinking(view);
  if (thought.live.trim() === "") return { ...thought, live: "" };
  return { ...add(thought, { kind: "assistant", text: thought.live.trimEnd() }), live: "" };
}

/** Streamed text: finished paragraphs go to the transcript at once, the rest stays live. */
export function streamText(current: View, text: string): View {
  const view = flushThinking(current);
  const { done, rest } = splitFinished(view.live + text);
  if (done === "") return { ...view, live: view.live + text };
  return { ...add(view, { kind: "assistant", text: done }), live: rest };
}

/** A subagent's events: only its approvals and running tools show (its text stays in its own transcript). */
export function subagentEvent(view: View, envelope: EventEnvelope): View {
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

/** An approval answered: the card goes; its title and a deny's feedback wait for the call's line. */
export function approvalResolved(view: View, envelope: EventEnvelope): View {
  const { event } = envelope;
  if (event.type !== "approvalResolved") return view;
  const card = view.approvals.find((a) => a.approvalId === event.approvalId);
  const approvals = without(view.approvals, (a) => a.approvalId === event.approvalId);
  if (!card) return { ...view, approvals };
  const feedback =
    event.decision.type === "deny" && event.decision.feedback ? event.decision.feedback : undefined;
  const answer = { title: card.title, ...(feedback ? { feedback } : {}) };
  return { ...view, approvals, answered: { ...view.answered, [event.toolCallId]: answer } };
}

/** A check recorded: on the Verify call that ran it, else (the engine's own run) a line of its own. */
export function checkRecorded(view: View, envelope: EventEnvelope): View {
  const { event } = envelope;
  if (event.type !== "checkRecorded") return view;
  const line = checkLine(event.record);
  const verify = view.tools.findLast((t) => t.title.startsWith("Verify") && !t.agentId);
  if (!verify) return add(view, { kind: "check", check: line });
  const tools = view.tools.map((t) =>
    t === verify ? { ...t, checks: [...(t.checks ?? []), line] } : t,
  );
  return { ...view, tools };
}

/** toolStarted, toolProgress and toolFinished of the main agent. */
export function toolEvent(view: View, envelope: EventEnvelope): View {
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
  const { [event.toolCallId]: answer, ...rest } = view.answered;
  const feedback = answer?.feedback;
  const next = {
    ...view,
    answered: rest,
    tools: without(view.tools, (t) => t.toolCallId === event.toolCallId),
  };
  return add(next, {
    kind: "tool",
    title: started?.title ?? answer?.title ?? event.toolName,
    status: event.status,
    ...(event.display ? { display: event.display } : {}),
    durationMs: event.durationMs,
    ...(feedback ? { feedback } : {}),
    ...(started?.checks ? { checks: started.checks } : {}),
  });
}
