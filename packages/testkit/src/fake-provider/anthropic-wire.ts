import type { ModelEvent, StopReason } from "@z-engine/protocol";
import type { WireOptions } from "../model-script.js";
import {
  lastUsage,
  messageForKind,
  type SseEvent,
  splitChars,
  statusForKind,
  stopReasonOf,
  toolArguments,
} from "./chunks.js";

const STOP: Record<StopReason, string> = {
  endTurn: "end_turn",
  toolUse: "tool_use",
  maxTokens: "max_tokens",
  stopSequence: "stop_sequence",
  refusal: "refusal",
  other: "pause_turn",
};

type BlockKind = "text" | "thinking" | null;

/** Builds the Anthropic Messages SSE events for scripted `events`. */
class AnthropicSseBuilder {
  readonly out: SseEvent[] = [];
  private index = -1;
  private open: BlockKind = null;

  constructor(private readonly wire: WireOptions) {}

  emit(event: string, data: Record<string, unknown>): void {
    this.out.push({ event, data: JSON.stringify({ type: event, ...data }) });
  }

  close(): void {
    if (this.open !== null) this.emit("content_block_stop", { index: this.index });
    this.open = null;
  }

  start(kind: BlockKind, block: Record<string, unknown>): void {
    this.close();
    this.index++;
    this.open = kind;
    this.emit("content_block_start", { index: this.index, content_block: block });
  }

  delta(delta: Record<string, unknown>): void {
    this.emit("content_block_delta", { index: this.index, delta });
  }

  /** A content block of a type this wire version does not define, with a delta of its own. */
  unknownBlock(): void {
    this.start(null, { type: "future_block", payload: { note: "not yet defined" } });
    this.delta({ type: "future_delta", payload: "more" });
    this.emit("content_block_stop", { index: this.index });
  }

  push(e: ModelEvent): void {
    switch (e.type) {
      case "textDelta":
        if (this.open !== "text") this.start("text", { type: "text", text: "" });
        for (const text of splitChars(e.text, this.wire.textChunkChars))
          this.delta({ type: "text_delta", text });
        return;
      case "thinkingDelta":
        if (this.open !== "thinking")
          this.start("thinking", { type: "thinking", thinking: "", signature: "" });
        for (const thinking of splitChars(e.text, this.wire.textChunkChars))
          this.delta({ type: "thinking_delta", thinking });
        return;
      case "thinkingEnd":
        if (this.open !== "thinking")
          this.start("thinking", { type: "thinking", thinking: "", signature: "" });
        if (e.signature) this.delta({ type: "signature_delta", signature: e.signature });
        this.close();
        return;
      case "redactedThinking":
        this.start(null, { type: "redacted_thinking", data: e.data });
        this.emit("content_block_stop", { index: this.index });
        return;
      case "toolCall":
        this.start(null, { type: "tool_use", id: e.id, name: e.name, input: {} });
        for (const partial_json of splitChars(toolArguments(e), this.wire.jsonChunkChars ?? 8))
          this.delta({ type: "input_json_delta", partial_json });
        this.emit("content_block_stop", { index: this.index });
        return;
      default:
        return;
    }
  }
}

/** The full SSE stream of an Anthropic response playing `events` (which end in a terminal event). */
export function anthropicSse(
  events: readonly ModelEvent[],
  model: string,
  wire: WireOptions,
): SseEvent[] {
  const usage = lastUsage(events);
  const b = new AnthropicSseBuilder(wire);
  b.emit("message_start", {
    message: {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        output_tokens: 1,
        cache_creation_input_tokens: usage.cacheWrite,
        cache_read_input_tokens: usage.cacheRead,
      },
    },
  });
  b.out.push({ event: "ping", data: '{"type":"ping"}' });
  if (wire.unknownBlocks) b.unknownBlock();
  for (const e of events) {
    if (e.type === "error") {
      const { type } = statusForKind(e.error.kind, "anthropic");
      b.emit("error", { error: { type, message: messageForKind(e.error.kind, e.error.message) } });
      return b.out;
    }
    b.push(e);
  }
  b.close();
  const reason = stopReasonOf(events) ?? "endTurn";
  b.emit("message_delta", {
    delta: { stop_reason: STOP[reason], stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  b.emit("message_stop", {});
  return b.out;
}

/** The non-streaming Anthropic message for `events`. */
export function anthropicMessage(
  events: readonly ModelEvent[],
  model: string,
): Record<string, unknown> {
  const content: Array<Record<string, unknown>> = [];
  const last = () => content[content.length - 1];
  let thinkingOpen = false;
  for (const e of events) {
    const block = last();
    if (e.type === "textDelta") {
      if (block?.type === "text") block.text = `${block.text}${e.text}`;
      else content.push({ type: "text", text: e.text, citations: null });
    } else if (e.type === "thinkingDelta") {
      if (block?.type === "thinking" && thinkingOpen) block.thinking = `${block.thinking}${e.text}`;
      else content.push({ type: "thinking", thinking: e.text, signature: "" });
      thinkingOpen = true;
      continue;
    } else if (e.type === "thinkingEnd" && block?.type === "thinking") {
      block.signature = e.signature ?? "";
    } else if (e.type === "redactedThinking") {
      content.push({ type: "redacted_thinking", data: e.data });
    } else if (e.type === "toolCall") {
      content.push({ type: "tool_use", id: e.id, name: e.name, input: e.input });
    }
    thinkingOpen = false;
  }
  const usage = lastUsage(events);
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: STOP[stopReasonOf(events) ?? "endTurn"],
    stop_sequence: null,
    usage: {
      input_tokens: usage.input,
      output_tokens: usage.output,
      cache_creation_input_tokens: usage.cacheWrite,
      cache_read_input_tokens: usage.cacheRead,
    },
  };
}

/** The Anthropic error body for an HTTP error. */
export function anthropicErrorBody(type: string, message: string): string {
  return JSON.stringify({ type: "error", error: { type, message } });
}
