// The transcript part of the fold: user, assistant and tool entries of one agent. Each entry is
// replaced (never mutated) when it changes, so a row re-renders only when its entry changed.
import type { EngineEvent } from "@z-engine/protocol";
import type { Entry } from "./types.js";

function replaceEntry(entries: Entry[], key: string, change: (e: Entry) => Entry): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.key === key) {
      entries[i] = change(entry);
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

/** Folds a transcript event into `entries` (in place: the caller owns a copy). True when it was one. */
export function applyTranscriptEvent(entries: Entry[], e: EngineEvent): boolean {
  switch (e.type) {
    case "turnStarted":
      entries.push({
        kind: "user",
        key: `u-${e.userMessageId}`,
        messageId: e.userMessageId,
        turnId: e.turnId,
        text: e.prompt,
      });
      return true;
    case "assistantStarted":
      if (!replaceEntry(entries, `a-${e.messageId}`, (x) => x))
        entries.push({
          kind: "assistant",
          key: `a-${e.messageId}`,
          messageId: e.messageId,
          text: "",
          thinking: "",
          done: false,
        });
      return true;
    case "textDelta":
    case "thinkingDelta": {
      const field = e.type === "textDelta" ? "text" : "thinking";
      replaceEntry(entries, `a-${e.messageId}`, (x) =>
        x.kind === "assistant" ? { ...x, [field]: x[field] + e.text } : x,
      );
      return true;
    }
    case "assistantFinished": {
      const { text, thinking } = textOf(e.message.content);
      const key = `a-${e.message.id}`;
      const found = replaceEntry(entries, key, (x) =>
        x.kind === "assistant" ? { ...x, text, thinking, done: true } : x,
      );
      if (!found)
        entries.push({
          kind: "assistant",
          key,
          messageId: e.message.id,
          text,
          thinking,
          done: true,
        });
      return true;
    }
    case "toolStarted":
      if (!replaceEntry(entries, `t-${e.toolCallId}`, (x) => x))
        entries.push({
          kind: "tool",
          key: `t-${e.toolCallId}`,
          toolCallId: e.toolCallId,
          name: e.toolName,
          title: e.title,
          input: e.input,
          progress: "",
          status: "running",
        });
      return true;
    case "toolProgress":
      replaceEntry(entries, `t-${e.toolCallId}`, (x) =>
        x.kind === "tool" ? { ...x, progress: x.progress + e.text } : x,
      );
      return true;
    case "toolFinished": {
      const done = { status: e.status, display: e.display, durationMs: e.durationMs };
      const found = replaceEntry(entries, `t-${e.toolCallId}`, (x) =>
        x.kind === "tool" ? { ...x, ...done } : x,
      );
      if (!found)
        entries.push({
          kind: "tool",
          key: `t-${e.toolCallId}`,
          toolCallId: e.toolCallId,
          name: e.toolName,
          title: e.toolName,
          input: undefined,
          progress: "",
          ...done,
        });
      return true;
    }
    default:
      return false;
  }
}

/**
 * Ends whatever still streams: a turn that ended (failed, cancelled) leaves no answer with a
 * streaming cursor and no tool shown as running.
 */
export function settleEntries(entries: Entry[]): void {
  // Only the last turn's entries can still stream: from the end back to its prompt.
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.kind === "user") return;
    if (entry?.kind === "assistant" && !entry.done) entries[i] = { ...entry, done: true };
    else if (entry?.kind === "tool" && entry.status === "running")
      entries[i] = { ...entry, status: "cancelled" };
  }
}
