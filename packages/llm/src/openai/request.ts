import type {
  ChatCompletionContentPart,
  ChatCompletionContentPartText,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { Effort, ModelMessage, ModelRequest } from "@z-engine/protocol";

/** `reasoning_effort` per effort (`max` has no wider value that compatible servers accept). */
export const REASONING_EFFORT: Record<Effort, "low" | "medium" | "high"> = {
  low: "low",
  medium: "medium",
  high: "high",
  max: "high",
};

/** How to shape the request for the server at hand. */
export interface OpenAiRequestOptions {
  /** Send cache marks as `cache_control` on content parts (OpenRouter). */
  cacheControl: boolean;
  /** Use `max_completion_tokens` (api.openai.com) instead of `max_tokens` (everyone else). */
  maxCompletionTokens: boolean;
}

type Part = ChatCompletionContentPart & { cache_control?: { type: "ephemeral" } };

function imagePart(mediaType: string, data: string): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: `data:${mediaType};base64,${data}` } };
}

/** One protocol message as chat messages: tool results become `tool` messages first. */
function convert(m: ModelMessage): ChatCompletionMessageParam[] {
  if (m.role === "assistant") {
    const text = m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
    const calls = m.content.flatMap((b) =>
      b.type === "toolUse"
        ? [
            {
              id: b.id,
              type: "function" as const,
              function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) },
            },
          ]
        : [],
    );
    return [
      {
        role: "assistant",
        content: text === "" && calls.length > 0 ? null : text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
    ];
  }
  const out: ChatCompletionMessageParam[] = [];
  const parts: ChatCompletionContentPart[] = [];
  for (const b of m.content) {
    if (b.type === "toolResult") {
      const text = b.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
      out.push({
        role: "tool",
        tool_call_id: b.toolUseId,
        content: b.isError ? `Error: ${text}` : text,
      });
      // Tool messages carry text only; images follow in the user message.
      for (const c of b.content) if (c.type === "image") parts.push(imagePart(c.mediaType, c.data));
    } else if (b.type === "text") parts.push({ type: "text", text: b.text });
    else if (b.type === "image") parts.push(imagePart(b.mediaType, b.data));
  }
  if (parts.length > 0) out.push({ role: "user", content: parts });
  return out;
}

/** Puts `cache_control` on the last content part of `message` (turning string content into parts). */
function markCached(message: ChatCompletionMessageParam): void {
  const content = message.content;
  if (content === null || content === undefined) return;
  const parts: Part[] =
    typeof content === "string" ? [{ type: "text", text: content }] : ([...content] as Part[]);
  const last = parts[parts.length - 1];
  if (!last) return;
  parts[parts.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
  (message as { content: unknown }).content = parts;
}

/**
 * The chat-completions request for a protocol request: system sections as one system
 * message, tool results as `tool` messages, usage requested in the stream, effort as
 * `reasoning_effort`, and, when `cacheControl` is on, cache marks as `cache_control`.
 */
export function toOpenAiParams(
  request: ModelRequest,
  options: OpenAiRequestOptions,
): ChatCompletionCreateParamsStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system.length > 0) {
    const parts: ChatCompletionContentPartText[] = request.system.map((s) => ({
      type: "text",
      text: s.text,
    }));
    messages.push({ role: "system", content: parts });
  }
  const lastOf: number[] = [];
  for (const m of request.messages) {
    messages.push(...convert(m));
    lastOf.push(messages.length - 1);
  }
  const tools: ChatCompletionTool[] = request.tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));
  if (options.cacheControl) applyMarks(request, messages, lastOf);
  return {
    model: request.model,
    stream: true,
    stream_options: { include_usage: true },
    messages,
    ...(options.maxCompletionTokens
      ? { max_completion_tokens: request.maxTokens }
      : { max_tokens: request.maxTokens }),
    ...(tools.length > 0 ? { tools } : {}),
    ...(request.effort ? { reasoning_effort: REASONING_EFFORT[request.effort] } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
  };
}

function applyMarks(
  request: ModelRequest,
  messages: ChatCompletionMessageParam[],
  lastOf: number[],
): void {
  const system = messages[0]?.role === "system" ? messages[0] : undefined;
  for (const mark of request.cacheMarks) {
    if (mark.target === "system" && system && Array.isArray(system.content)) {
      const part = system.content[mark.index];
      const marked: Part = {
        ...(part as ChatCompletionContentPartText),
        cache_control: { type: "ephemeral" },
      };
      if (part) system.content[mark.index] = marked as ChatCompletionContentPartText;
    } else if (mark.target === "message") {
      const at = lastOf[mark.index];
      const target = at === undefined ? undefined : messages[at];
      if (target && (request.system.length === 0 || at !== 0)) markCached(target);
    }
  }
}
