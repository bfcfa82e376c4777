import { relative } from "node:path";
import type { EventEnvelope } from "@z-engine/protocol";
import { reduce } from "./view.js";
import { flushLive } from "./view-tools.js";
import type { Item, View } from "./view-types.js";

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** A tool call's title from its name and input (the log keeps no titles), as the live one reads. */
export function toolTitle(name: string, input: unknown, root: string): string {
  const i = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>;
  const path = str(i.file_path) ?? str(i.path);
  const shown = path?.startsWith(root) ? relative(root, path) || "." : path;
  switch (name) {
    case "Bash":
      return `Bash ${str(i.description) ?? str(i.command) ?? ""}`.trim();
    case "Grep":
    case "Glob":
      return `${name} ${str(i.pattern) ?? ""}`.trim();
    case "Verify":
      return Array.isArray(i.checks) && i.checks.length > 0
        ? `Verify ${i.checks.join(", ")}`
        : name;
    default:
      return shown ? `${name} ${shown}` : name;
  }
}

/** Cuts the transcript back (in place) to before the user message a conversation rewind went to. */
function cutAt(items: Item[], messageId: string): void {
  const at = items.findIndex((i) => i.kind === "user" && i.messageId === messageId);
  if (at >= 0) items.length = at;
}

/** One stored event, as the resumed view takes it. */
function foldOne(view: View, envelope: EventEnvelope, root: string): View {
  const { event } = envelope;
  switch (event.type) {
    // What was live when the session was written is over: old trust prompts and notices
    // (the open repeats the ones that still hold) and cards that were never answered.
    case "trustRequired":
    case "notice":
    case "approvalRequested":
    case "questionAsked":
    case "planProposed":
      return view;
    case "rewound":
      // The transcript is cut by the fold (`foldHistory`); the rewind's own line is not kept.
      if (event.restore === "code") return view;
      return { ...reduce(view, envelope), items: view.items };
    case "toolStarted":
      if (event.title !== event.toolName) return reduce(view, envelope);
      return reduce(view, {
        ...envelope,
        event: { ...event, title: toolTitle(event.toolName, event.input, root) },
      });
    case "assistantFinished": {
      // The log has the whole message, not its deltas: its text is the answer.
      const text = event.message.content
        .flatMap((b) => (b.type === "text" ? [b.text] : []))
        .join("\n");
      const streamed = text ? { ...view, live: view.live + text } : view;
      return reduce(streamed, envelope);
    }
    default:
      return reduce(view, envelope);
  }
}

/**
 * A stored session's events (engine's `readSessionHistory`) folded into the view it resumes
 * with: prompts, answers, tool calls with their results, checks and turn ends, the
 * conversation as it stands after rewinds. Whatever was pending when it was written is
 * dropped. Pure.
 */
export function foldHistory(base: View, events: readonly EventEnvelope[], root: string): View {
  // Items only ever join the end, so each event folds into an empty list and its new items are
  // moved here: one copy of the transcript, not one per event (1,000 events, 1,000 copies).
  const items = [...base.items];
  let view: View = { ...base, items: [] };
  for (const envelope of events) {
    if (envelope.agentId) continue;
    const { event } = envelope;
    if (event.type === "rewound" && event.restore !== "code") cutAt(items, event.messageId);
    view = foldOne(view, envelope, root);
    if (view.items.length > 0) {
      items.push(...view.items);
      view = { ...view, items: [] };
    }
  }
  const settled = flushLive({ ...view, items });
  return {
    ...settled,
    tools: [],
    approvals: [],
    questions: [],
    plans: [],
    running: false,
    answered: {},
    ...(base.trust ? { trust: base.trust } : {}),
  };
}
