import { MessageAssembler } from "@z-engine/protocol";
import type { SessionCore } from "./core.js";

const PROMPT =
  "Write a title of at most six words for a coding session that starts with the request below. Reply with the title only, no quotes or punctuation at the end.";

/** A title from the first line of the prompt, when the fast model gives none. */
export function fallbackTitle(prompt: string): string {
  const line = prompt.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line || "Untitled session";
}

/**
 * Asks the fast model for a title after the first turn, records it and emits titleChanged.
 * A model failure falls back to the prompt's first line. Never rejects.
 */
export async function generateTitle(
  core: SessionCore,
  prompt: string,
  signal: AbortSignal,
): Promise<void> {
  let title = "";
  try {
    const assembler = new MessageAssembler();
    for await (const event of core.client("fast", core.config.fastModel).stream(
      {
        model: core.config.fastModel,
        system: [{ id: "base", text: PROMPT, cacheable: false }],
        tools: [],
        messages: [{ role: "user", content: [{ type: "text", text: prompt.slice(0, 4000) }] }],
        cacheMarks: [],
        maxTokens: 64,
      },
      { signal },
    )) {
      assembler.push(event);
    }
    if (!assembler.error) {
      title = assembler.content
        .map((b) => (b.type === "text" ? b.text : ""))
        .join("")
        .trim()
        .replace(/^["']|["'.]$/g, "");
    }
  } catch {
    title = "";
  }
  if (signal.aborted) return;
  const final = title.split("\n")[0]?.slice(0, 80) || fallbackTitle(prompt);
  await core.journal
    .record("title", { title: final }, { type: "titleChanged", title: final })
    .catch(() => {});
}
