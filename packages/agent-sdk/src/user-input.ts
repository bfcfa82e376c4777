// The prompts of a query: one string, or the text of each user message a host streams in.
import { claudeUserText } from "@z-engine/engine";
import type { SDKUserMessage } from "./types.js";

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
    const text = message?.type === "user" ? claudeUserText(message.message?.content) : undefined;
    if (text === undefined || text.trim() === "")
      warn(`streaming input: message ${n} skipped: it is not a user message with text`);
    else yield text;
  }
}
