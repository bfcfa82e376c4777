import type { CompactionLedger, Message } from "@z-engine/protocol";

const NOT_A_REQUEST = /^<(system-reminder|compaction-summary)>/;
const ARTIFACT = /\bartifact:[A-Za-z0-9][\w.-]*[A-Za-z0-9]/g;

/** The user's words in a message: its text blocks that are no reminder and no summary. */
function requestText(message: Message): string | undefined {
  if (message.role !== "user") return undefined;
  const texts = message.content.flatMap((b) =>
    b.type === "text" && !NOT_A_REQUEST.test(b.text.trimStart()) ? [b.text] : [],
  );
  return texts.length > 0 ? texts.join("\n\n") : undefined;
}

/** The index and words of the user's latest request in `messages`, if there is one. */
export function latestRequest(
  messages: readonly Message[],
): { index: number; text: string } | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    const text = message && requestText(message);
    if (text !== undefined) return { index: i, text };
  }
  return undefined;
}

/** Every `artifact:<name>` the messages name, in order of first mention. */
function artifactsNamed(messages: readonly Message[]): string[] {
  const found = new Set<string>();
  for (const message of messages)
    for (const block of message.content) {
      const texts =
        block.type === "text"
          ? [block.text]
          : block.type === "toolResult"
            ? block.content.flatMap((c) => (c.type === "text" ? [c.text] : []))
            : [];
      for (const text of texts) for (const m of text.matchAll(ARTIFACT)) found.add(m[0]);
    }
  return [...found];
}

/** What is kept verbatim besides the summary: the latest request (when dropped) and the open todos. */
export interface KeptTask {
  readonly request?: string;
  readonly todos: readonly string[];
}

/** The ledger of a compaction that drops `dropped` (a prefix of the working set) and keeps `task`. */
export function compactionLedger(dropped: readonly Message[], task: KeptTask): CompactionLedger {
  const first = dropped[0];
  const last = dropped[dropped.length - 1];
  return {
    ranges: first && last ? [{ first: first.id, last: last.id, count: dropped.length }] : [],
    artifacts: artifactsNamed(dropped),
    requestKept: task.request !== undefined,
    todosKept: task.todos.length,
  };
}

/** The summary's closing part: the task, verbatim ("" when there is nothing to keep). */
export function keptText(task: KeptTask): string {
  const lines: string[] = [];
  if (task.request !== undefined)
    lines.push("", "The user's latest request, verbatim:", "<request>", task.request, "</request>");
  if (task.todos.length > 0)
    lines.push("", "Open todo items, verbatim:", ...task.todos.map((t) => `- ${t}`));
  return lines.join("\n");
}
