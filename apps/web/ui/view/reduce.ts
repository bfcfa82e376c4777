// The fold of a session's events into its view. Pure: `reduceView(view, items)` returns a new
// view (the old one is never changed) and reads nothing but its arguments, so the web page
// and the terminal UI can share it.
import type { EngineEvent, EventEnvelope } from "@z-engine/protocol";
import { applySideEvent } from "./side.js";
import { applyTranscriptEvent, settleEntries } from "./transcript.js";
import type { Draft, Entry, PageView, StreamItem } from "./types.js";

/** A subagent's entries in the draft, copied the first time this batch touches them. */
export function agentEntries(draft: Draft, agentId: string): Entry[] {
  const view = draft.view;
  if (!draft.agentsCopied.has(agentId)) {
    view.agents[agentId] = { entries: [...(view.agents[agentId]?.entries ?? [])] };
    draft.agentsCopied.add(agentId);
  }
  return (view.agents[agentId] as { entries: Entry[] }).entries;
}

function applyEnvelope(draft: Draft, envelope: EventEnvelope, cursor: number): void {
  const e: EngineEvent = envelope.event;
  const agentId = envelope.agentId;
  // A subagent's transcript is its own; the main transcript shows its Agent call only.
  if (agentId && e.type !== "turnStarted") {
    if (applyTranscriptEvent(agentEntries(draft, agentId), e)) return;
  } else if (applyTranscriptEvent(draft.view.entries, e)) {
    if (e.type === "turnStarted") draft.view.runningTurn = e.turnId;
    return;
  }
  if (e.type === "turnFinished") {
    settleEntries(draft.view.entries);
    for (const id of Object.keys(draft.view.agents)) settleEntries(agentEntries(draft, id));
  }
  applySideEvent(draft, envelope, cursor);
}

/**
 * Folds items into a view and returns the new view (the same object when no item was new).
 * Items at or below the view's last cursor are skipped, so replayed and resent items apply once.
 */
export function reduceView(prev: PageView, items: readonly StreamItem[]): PageView {
  if (!items.some((item) => item.cursor > prev.lastCursor)) return prev;
  const view: PageView = {
    ...prev,
    entries: [...prev.entries],
    agents: { ...prev.agents },
    turnUsage: { ...prev.turnUsage },
    agentUsage: { ...prev.agentUsage },
  };
  const draft: Draft = { view, agentsCopied: new Set() };
  for (const item of items) {
    if (item.cursor <= view.lastCursor) continue;
    view.lastCursor = item.cursor;
    applyEnvelope(draft, item.envelope, item.cursor);
  }
  return view;
}
