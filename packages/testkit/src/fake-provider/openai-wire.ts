import type { ModelEvent, StopReason, TokenUsage } from "@z-engine/protocol";
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

type ToolCallEvent = Extract<ModelEvent, { type: "toolCall" }>;

const FINISH: Record<StopReason, string> = {
  endTurn: "stop",
  toolUse: "tool_calls",
  maxTokens: "length",
  stopSequence: "stop",
  refusal: "content_filter",
  other: "stop",
};

/** OpenAI usage: prompt tokens include the cached ones. */
function openAiUsage(usage: TokenUsage): Record<string, unknown> {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    prompt_tokens: prompt,
    completion_tokens: usage.output,
    total_tokens: prompt + usage.output,
    prompt_tokens_details: {
      cached_tokens: usage.cacheRead,
      ...(usage.cacheWrite > 0 ? { cache_write_tokens: usage.cacheWrite } : {}),
    },
  };
}

class OpenAiSseBuilder {
  readonly out: SseEvent[] = [];
  private toolIndex = 0;

  constructor(
    private readonly model: string,
    private readonly wire: WireOptions,
  ) {}

  chunk(delta: Record<string, unknown>, finish: string | null = null): void {
    this.out.push({
      data: JSON.stringify({
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: 1700000000,
        model: this.model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      }),
    });
  }

  /** Parallel calls: every call's header first, then their argument fragments interleaved. */
  toolCalls(calls: ToolCallEvent[]): void {
    const first = this.toolIndex;
    this.toolIndex += calls.length;
    if (this.wire.noToolCallIds) {
      calls.forEach((c, i) => {
        const fn = { name: c.name, arguments: toolArguments(c) };
        this.chunk({ tool_calls: [{ index: first + i, type: "function", function: fn }] });
      });
      return;
    }
    calls.forEach((c, i) => {
      const fn = { name: c.name, arguments: "" };
      this.chunk({ tool_calls: [{ index: first + i, id: c.id, type: "function", function: fn }] });
    });
    const pieces = calls.map((c) => splitChars(toolArguments(c), this.wire.jsonChunkChars ?? 8));
    const rounds = Math.max(...pieces.map((p) => p.length));
    for (let r = 0; r < rounds; r++) {
      pieces.forEach((p, i) => {
        const args = p[r];
        if (args !== undefined)
          this.chunk({ tool_calls: [{ index: first + i, function: { arguments: args } }] });
      });
    }
  }
}

/** The full SSE stream (ending in `[DONE]`) of a chat completion playing `events`. */
export function openAiSse(
  events: readonly ModelEvent[],
  model: string,
  wire: WireOptions,
  includeUsage: boolean,
): SseEvent[] {
  const b = new OpenAiSseBuilder(model, wire);
  const reasoning = wire.reasoningField ?? "reasoning_content";
  b.chunk({ role: "assistant", content: "" });
  if (wire.unknownBlocks) b.chunk({ future_field: { note: "not yet defined" } });
  let calls: ToolCallEvent[] = [];
  const flush = () => {
    if (calls.length > 0) b.toolCalls(calls);
    calls = [];
  };
  for (const e of events) {
    if (e.type !== "toolCall") flush();
    if (e.type === "toolCall") calls.push(e);
    else if (e.type === "textDelta") {
      for (const content of splitChars(e.text, wire.textChunkChars)) b.chunk({ content });
    } else if (e.type === "thinkingDelta") {
      for (const text of splitChars(e.text, wire.textChunkChars)) b.chunk({ [reasoning]: text });
    } else if (e.type === "error") {
      const { type, code } = statusForKind(e.error.kind, "openai");
      const message = messageForKind(e.error.kind, e.error.message);
      b.out.push({ data: JSON.stringify({ error: { message, type, code: code ?? null } }) });
      return b.out;
    }
  }
  flush();
  b.chunk({}, FINISH[stopReasonOf(events) ?? "endTurn"]);
  if (includeUsage && !wire.noUsage) {
    b.out.push({
      data: JSON.stringify({
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: 1700000000,
        model,
        choices: [],
        usage: openAiUsage(lastUsage(events)),
      }),
    });
  }
  b.out.push({ data: "[DONE]" });
  return b.out;
}

/** The non-streaming chat completion for `events`. */
export function openAiCompletion(
  events: readonly ModelEvent[],
  model: string,
  wire: WireOptions,
): Record<string, unknown> {
  const text = events.flatMap((e) => (e.type === "textDelta" ? [e.text] : [])).join("");
  const thinking = events.flatMap((e) => (e.type === "thinkingDelta" ? [e.text] : [])).join("");
  const toolCalls = events.flatMap((e) =>
    e.type === "toolCall"
      ? [
          {
            ...(wire.noToolCallIds ? {} : { id: e.id }),
            type: "function",
            function: { name: e.name, arguments: toolArguments(e) },
          },
        ]
      : [],
  );
  const message: Record<string, unknown> = {
    role: "assistant",
    content: text === "" ? null : text,
  };
  if (thinking !== "") message[wire.reasoningField ?? "reasoning_content"] = thinking;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1700000000,
    model,
    choices: [{ index: 0, message, finish_reason: FINISH[stopReasonOf(events) ?? "endTurn"] }],
    ...(wire.noUsage ? {} : { usage: openAiUsage(lastUsage(events)) }),
  };
}

/** The OpenAI error body for an HTTP error. */
export function openAiErrorBody(type: string, message: string, code?: string): string {
  return JSON.stringify({ error: { message, type, code: code ?? null, param: null } });
}
