import type { ContentBlock } from "./content.js";
import type { ModelError, ModelEvent, StopReason } from "./model.js";
import type { TokenUsage } from "./usage.js";

/**
 * Folds a client's `ModelEvent`s into the assistant message they add up to. Consecutive
 * text deltas form one text block, thinking deltas one thinking block (closed by
 * `thinkingEnd`), and each tool call one toolUse block, in arrival order.
 */
export class MessageAssembler {
  readonly content: ContentBlock[] = [];
  usage: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  stopReason: StopReason | undefined;
  error: ModelError | undefined;
  /** True once any answer text or tool call has arrived (fallbacks and retries end there). */
  answered = false;
  private thinkingOpen = false;

  push(event: ModelEvent): void {
    const last = this.content[this.content.length - 1];
    if (event.type !== "thinkingDelta" && event.type !== "usage") this.thinkingOpen = false;
    switch (event.type) {
      case "textDelta":
        this.answered = true;
        if (last?.type === "text") last.text += event.text;
        else this.content.push({ type: "text", text: event.text });
        break;
      case "thinkingDelta":
        if (last?.type === "thinking" && this.thinkingOpen) last.thinking += event.text;
        else this.content.push({ type: "thinking", thinking: event.text });
        this.thinkingOpen = true;
        return;
      case "thinkingEnd":
        this.thinkingOpen = false;
        if (last?.type === "thinking") {
          if (event.signature !== undefined) last.signature = event.signature;
        } else if (event.signature !== undefined) {
          this.content.push({ type: "thinking", thinking: "", signature: event.signature });
        }
        break;
      case "redactedThinking":
        this.content.push({ type: "redactedThinking", data: event.data });
        break;
      case "toolCall":
        this.answered = true;
        this.content.push({ type: "toolUse", id: event.id, name: event.name, input: event.input });
        break;
      case "usage":
        this.usage = event.usage;
        break;
      case "stop":
        this.stopReason = event.reason;
        break;
      case "error":
        this.error = event.error;
        break;
      case "retrying":
      case "fallback":
        break;
    }
  }
}
