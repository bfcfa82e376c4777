import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ModelEvent, StopReason } from "@z-engine/protocol";
import type { StreamDecoder } from "../sdk-stream.js";
import { ToolCallIds, toolCallEvent } from "../tool-input.js";

const FINISH: Record<string, StopReason> = {
  stop: "endTurn",
  tool_calls: "toolUse",
  function_call: "toolUse",
  length: "maxTokens",
  content_filter: "refusal",
};

interface PendingCall {
  id: string | undefined;
  name: string;
  args: string;
}

type Delta = ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: unknown;
  reasoning?: unknown;
};
type WireCall = NonNullable<ChatCompletionChunk.Choice.Delta["tool_calls"]>[number];

/**
 * Decodes chat-completion chunks: text and reasoning (`reasoning_content` or `reasoning`)
 * pass through, tool calls are assembled by `index` (parallel calls interleave) and emitted
 * in index order when the choice finishes, usage (with cached tokens) is reported when it
 * arrives. Handles servers that send no usage or no tool-call ids (ids are generated). A
 * stream without a `finish_reason` ends in a `network` error.
 */
export class OpenAiDecoder implements StreamDecoder<ChatCompletionChunk> {
  private readonly calls = new Map<number, PendingCall>();
  private readonly ids = new ToolCallIds();
  private thinking = false;
  private reason: StopReason | undefined;
  private model: string | undefined;

  push(chunk: ChatCompletionChunk): ModelEvent[] {
    const out: ModelEvent[] = [];
    if (chunk.model) this.model = chunk.model;
    const choice = chunk.choices?.[0];
    if (choice) {
      const delta = (choice.delta ?? {}) as Delta;
      const reasoning =
        typeof delta.reasoning_content === "string" ? delta.reasoning_content : delta.reasoning;
      if (typeof reasoning === "string" && reasoning !== "") {
        this.thinking = true;
        out.push({ type: "thinkingDelta", text: reasoning });
      }
      if (typeof delta.content === "string" && delta.content !== "") {
        this.endThinking(out);
        out.push({ type: "textDelta", text: delta.content });
      }
      if (delta.tool_calls) {
        this.endThinking(out);
        for (const call of delta.tool_calls) this.addCall(call);
      }
      if (choice.finish_reason) this.finishChoice(choice.finish_reason, out);
    }
    if (chunk.usage) out.push({ type: "usage", usage: usageOf(chunk.usage) });
    return out;
  }

  finish(): ModelEvent[] {
    if (this.reason === undefined) {
      return [
        {
          type: "error",
          error: { kind: "network", message: "the stream ended before the response was complete" },
        },
      ];
    }
    return [{ type: "stop", reason: this.reason, ...(this.model ? { model: this.model } : {}) }];
  }

  private endThinking(out: ModelEvent[]): void {
    if (!this.thinking) return;
    this.thinking = false;
    out.push({ type: "thinkingEnd" });
  }

  private addCall(call: WireCall): void {
    let index = typeof call.index === "number" ? call.index : this.calls.size;
    const existing = this.calls.get(index);
    // Some servers reuse index 0 for every parallel call: a new id starts a new call.
    if (existing && call.id && existing.id && call.id !== existing.id)
      index = Math.max(...this.calls.keys()) + 1;
    const pending = this.calls.get(index) ?? { id: undefined, name: "", args: "" };
    if (call.id) pending.id = call.id;
    if (call.function?.name) pending.name += call.function.name;
    if (call.function?.arguments) pending.args += call.function.arguments;
    this.calls.set(index, pending);
  }

  private finishChoice(finish: string, out: ModelEvent[]): void {
    this.endThinking(out);
    const order = [...this.calls.keys()].sort((a, b) => a - b);
    for (const index of order) {
      const call = this.calls.get(index)!;
      out.push(toolCallEvent(this.ids.unique(call.id), call.name, call.args));
    }
    // Some servers say "stop" after tool calls; the calls decide. A "length" finish stays
    // maxTokens: the last call may be cut off (the engine tells the model so).
    const reason = FINISH[finish] ?? "other";
    this.reason = this.calls.size > 0 && reason !== "maxTokens" ? "toolUse" : reason;
    this.calls.clear();
  }
}

interface WireUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
}

function usageOf(u: WireUsage) {
  const cacheRead = u.prompt_tokens_details?.cached_tokens ?? 0;
  const cacheWrite = u.prompt_tokens_details?.cache_write_tokens ?? 0;
  return {
    input: Math.max(0, (u.prompt_tokens ?? 0) - cacheRead - cacheWrite),
    output: u.completion_tokens ?? 0,
    cacheRead,
    cacheWrite,
  };
}
