import { MessageAssembler } from "@z-engine/protocol";
import { meteredClient } from "../core/spend.js";
import type { SessionCore } from "../core/session-core.js";

const PROMPT =
  "Write a title of at most six words for a coding session that starts with the request below. Reply with the title only, no quotes or punctuation at the end.";

/** A title from the first line of the prompt, when the fast model gives none. */
export function fallbackTitle(prompt: string): string {
  const line = prompt.trim().split("\n")[0] ?? "";
  return line.length > 60 ? `${line.slice(0, 57)}...` : line || "Untitled session";
}

/** The fast model's title for a prompt, or "" when it fails. Never rejects. */
async function askForTitle(
  core: SessionCore,
  prompt: string,
  signal: AbortSignal,
): Promise<string> {
  try {
    const assembler = new MessageAssembler();
    const request = {
      model: core.config.fastModel,
      system: [{ id: "base", text: PROMPT, cacheable: false }],
      tools: [],
      messages: [
        {
          role: "user" as const,
          content: [{ type: "text" as const, text: prompt.slice(0, 4000) }],
        },
      ],
      cacheMarks: [],
      maxTokens: 64,
    };
    const client = meteredClient(core, core.client("fast", core.config.fastModel), () => ({
      source: "title",
    }));
    for await (const event of client.stream(request, { signal })) {
      assembler.push(event);
    }
    if (assembler.error) return "";
    return assembler.content
      .map((b) => (b.type === "text" ? b.text : ""))
      .join("")
      .trim()
      .replace(/^["']|["'.]$/g, "");
  } catch {
    return "";
  }
}

/**
 * Titles the session after its first turn: the fast model's title, or the prompt's first line
 * when the model fails (or a cost cap is reached: no request then). Its spend is the session's,
 * source `title`. Headless sessions (one prompt, then exit) take the first line without
 * a request. Records the title and emits titleChanged. Never rejects.
 */
export async function generateTitle(
  core: SessionCore,
  prompt: string,
  signal: AbortSignal,
): Promise<void> {
  const title = core.headless ? "" : await askForTitle(core, prompt, signal);
  if (signal.aborted) return;
  const final = title.split("\n")[0]?.slice(0, 80) || fallbackTitle(prompt);
  await core.journal
    .record("title", { title: final }, { type: "titleChanged", title: final })
    .catch(() => {});
}
