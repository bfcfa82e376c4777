// The prompts of a query: one string, or the text of each user message a host streams in.
import type { SDKUserMessage } from "./types.js";

function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const parts = content
    .filter(
      (b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string",
    )
    .map((b) => b.text);
  return parts.length > 0 ? parts.join("\n") : undefined;
}

/**
 * Each prompt in order: the string itself, or the text of each streamed user message (a
 * message without text is reported through `warn` and skipped). Stops when `signal` aborts.
 */
export async function* promptTexts(
  prompt: string | AsyncIterable<SDKUserMessage>,
  signal: AbortSignal,
  warn: (message: string) => void,
): AsyncGenerator<string> {
  if (typeof prompt === "string") {
    yield prompt;
    return;
  }
  let n = 0;
  for await (const message of prompt) {
    n++;
    if (signal.aborted) return;
    const text = message?.type === "user" ? textOf(message.message?.content) : undefined;
    if (text === undefined || text.trim() === "")
      warn(`streaming input: message ${n} skipped: it is not a user message with text`);
    else yield text;
  }
}
