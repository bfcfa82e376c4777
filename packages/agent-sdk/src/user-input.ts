// The prompts of a query: one string, or the text of each user message a host streams in.
import { claudeUserText } from "@z-engine/engine";
import type { SDKUserMessage } from "./types.js";

/** Resolves `done` once `signal` aborts (at once when it already has). */
function aborted(signal: AbortSignal): Promise<{ done: true; value: undefined }> {
  return new Promise((resolve) => {
    const stop = () => resolve({ done: true, value: undefined });
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
  });
}

/**
 * Each prompt in order: the string itself, or the text of each streamed user message (a
 * message without text is reported through `warn` and skipped). Ends as soon as `signal`
 * aborts, even while the host's stream has no next message yet (its `return()` is called).
 */
export async function* promptTexts(
  prompt: string | AsyncIterable<SDKUserMessage>,
  signal: AbortSignal,
  warn: (message: string) => void,
): AsyncGenerator<string> {
  if (typeof prompt === "string") {
    if (!signal.aborted) yield prompt;
    return;
  }
  const input = prompt[Symbol.asyncIterator]();
  const stopped = aborted(signal);
  try {
    for (let n = 1; ; n++) {
      const next = await Promise.race([input.next(), stopped]);
      if (next.done || signal.aborted) return;
      const message = next.value;
      const text = message?.type === "user" ? claudeUserText(message.message?.content) : undefined;
      if (text === undefined || text.trim() === "")
        warn(`streaming input: message ${n} skipped: it is not a user message with text`);
      else yield text;
    }
  } finally {
    // A stream left early is told so (a generator runs its finally blocks); not awaited, as a
    // generator waiting for its next message cannot finish until it has one.
    if (signal.aborted) void input.return?.()?.catch?.(() => {});
  }
}
