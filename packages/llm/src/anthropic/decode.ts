import type {
  MessageDeltaUsage,
  RawMessageStreamEvent,
  StopReason as WireStopReason,
  Usage as WireUsage,
} from "@anthropic-ai/sdk/resources/messages";
import type { ModelEvent, StopReason, TokenUsage } from "@z-engine/protocol";
import type { StreamDecoder } from "../sdk-stream.js";
import { ToolCallIds, toolCallEvent } from "../tool-input.js";

const STOP: Record<WireStopReason, StopReason> = {
  end_turn: "endTurn",
  tool_use: "toolUse",
  max_tokens: "maxTokens",
  model_context_window_exceeded: "maxTokens",
  stop_sequence: "stopSequence",
  refusal: "refusal",
  pause_turn: "other",
};

type OpenBlock =
  | { kind: "text" }
  | { kind: "thinking"; signature: string }
  | { kind: "tool"; id: string; name: string; json: string; startInput: unknown }
  | { kind: "other" };

/**
 * Decodes Anthropic `RawMessageStreamEvent`s: text and thinking deltas pass through, tool
 * input is assembled from `input_json_delta` fragments and emitted whole at the block's end,
 * usage is reported at `message_start` and `message_delta`, and the stop comes with
 * `message_stop`. A stream without `message_stop` ends in a `network` error.
 */
export class AnthropicDecoder implements StreamDecoder<RawMessageStreamEvent> {
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly ids = new ToolCallIds();
  private usage: TokenUsage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  private reason: StopReason = "other";
  private model: string | undefined;
  private stopped = false;

  push(event: RawMessageStreamEvent): ModelEvent[] {
    switch (event.type) {
      case "message_start":
        this.model = event.message.model;
        return [this.addUsage(event.message.usage)];
      case "content_block_start":
        return this.start(event.index, event.content_block);
      case "content_block_delta":
        return this.delta(event.index, event.delta);
      case "content_block_stop":
        return this.stop(event.index);
      case "message_delta":
        if (event.delta.stop_reason) this.reason = STOP[event.delta.stop_reason] ?? "other";
        return event.usage ? [this.addUsage(event.usage)] : [];
      case "message_stop":
        this.stopped = true;
        return [];
      default:
        return [];
    }
  }

  finish(): ModelEvent[] {
    if (!this.stopped) {
      return [
        {
          type: "error",
          error: { kind: "network", message: "the stream ended before the response was complete" },
        },
      ];
    }
    // A tool block the output limit left open (no content_block_stop) still comes out, with
    // its incomplete input, so the engine answers it instead of losing it.
    const open = [...this.blocks.keys()].sort((a, b) => a - b).flatMap((i) => this.stop(i));
    return [
      ...open,
      { type: "stop", reason: this.reason, ...(this.model ? { model: this.model } : {}) },
    ];
  }

  private addUsage(u: Partial<WireUsage> | MessageDeltaUsage): ModelEvent {
    this.usage = {
      input: u.input_tokens ?? this.usage.input,
      output: u.output_tokens ?? this.usage.output,
      cacheRead: u.cache_read_input_tokens ?? this.usage.cacheRead,
      cacheWrite: u.cache_creation_input_tokens ?? this.usage.cacheWrite,
    };
    return { type: "usage", usage: this.usage };
  }

  private start(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: "content_block_start" }>["content_block"],
  ): ModelEvent[] {
    switch (block.type) {
      case "text":
        this.blocks.set(index, { kind: "text" });
        return block.text ? [{ type: "textDelta", text: block.text }] : [];
      case "thinking":
        this.blocks.set(index, { kind: "thinking", signature: block.signature ?? "" });
        return block.thinking ? [{ type: "thinkingDelta", text: block.thinking }] : [];
      case "redacted_thinking":
        this.blocks.set(index, { kind: "other" });
        return [{ type: "redactedThinking", data: block.data }];
      case "tool_use":
        this.blocks.set(index, {
          kind: "tool",
          id: block.id,
          name: block.name,
          json: "",
          startInput: block.input,
        });
        return [];
      default:
        this.blocks.set(index, { kind: "other" });
        return [];
    }
  }

  private delta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"],
  ): ModelEvent[] {
    const open = this.blocks.get(index);
    switch (delta.type) {
      case "text_delta":
        return [{ type: "textDelta", text: delta.text }];
      case "thinking_delta":
        return [{ type: "thinkingDelta", text: delta.thinking }];
      case "signature_delta":
        if (open?.kind === "thinking") open.signature += delta.signature;
        return [];
      case "input_json_delta":
        if (open?.kind === "tool") open.json += delta.partial_json;
        return [];
      default:
        return [];
    }
  }

  private stop(index: number): ModelEvent[] {
    const open = this.blocks.get(index);
    this.blocks.delete(index);
    if (open?.kind === "thinking") {
      return [{ type: "thinkingEnd", ...(open.signature ? { signature: open.signature } : {}) }];
    }
    if (open?.kind === "tool") {
      const raw =
        open.json === "" && open.startInput !== undefined
          ? JSON.stringify(open.startInput)
          : open.json;
      return [toolCallEvent(this.ids.unique(open.id), open.name, raw)];
    }
    return [];
  }
}
