import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import type { ContentBlock, Effort, ModelMessage, ModelRequest } from "@z-engine/protocol";

/** Extended-thinking budget per effort (tokens). */
export const THINKING_BUDGET: Record<Effort, number> = {
  low: 2048,
  medium: 8192,
  high: 16384,
  max: 32768,
};

const EPHEMERAL: CacheControlEphemeral = { type: "ephemeral" };

function block(b: ContentBlock): ContentBlockParam | undefined {
  switch (b.type) {
    case "text":
      // The API rejects empty text blocks.
      return b.text === "" ? undefined : { type: "text", text: b.text };
    case "image":
      return { type: "image", source: { type: "base64", media_type: b.mediaType, data: b.data } };
    case "thinking":
      // A thinking block without its signature is rejected, so it is left out.
      return b.signature
        ? { type: "thinking", thinking: b.thinking, signature: b.signature }
        : undefined;
    case "redactedThinking":
      return { type: "redacted_thinking", data: b.data };
    case "toolUse":
      return { type: "tool_use", id: b.id, name: b.name, input: b.input ?? {} };
    case "toolResult":
      return {
        type: "tool_result",
        tool_use_id: b.toolUseId,
        is_error: b.isError,
        content: b.content.map((c) =>
          c.type === "text"
            ? { type: "text" as const, text: c.text === "" ? "(empty)" : c.text }
            : {
                type: "image" as const,
                source: { type: "base64" as const, media_type: c.mediaType, data: c.data },
              },
        ),
      };
  }
}

function message(m: ModelMessage, cached: boolean): MessageParam {
  const content = m.content.flatMap((b) => {
    const out = block(b);
    return out ? [out] : [];
  });
  if (cached) {
    // cache_control cannot sit on thinking blocks: mark the last block that can carry it.
    for (let i = content.length - 1; i >= 0; i--) {
      const c = content[i];
      if (c && c.type !== "thinking" && c.type !== "redacted_thinking") {
        content[i] = { ...c, cache_control: EPHEMERAL } as ContentBlockParam;
        break;
      }
    }
  }
  return { role: m.role, content };
}

const CLAUDE_VERSION = /^claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2}))?(?:-|$)/;

/**
 * Whether a model thinks adaptively, with effort as `output_config.effort`: Claude models from
 * 4.6 on (Claude 5 models reject manual thinking budgets), and the Fable and Mythos families.
 * Older models (and unknown names) get an extended-thinking budget instead.
 */
export function usesAdaptiveThinking(model: string): boolean {
  const id = model.slice(model.lastIndexOf("/") + 1);
  if (id.startsWith("claude-mythos") || id.startsWith("claude-fable")) return true;
  const m = CLAUDE_VERSION.exec(id);
  if (!m) return false;
  const major = Number(m[2]);
  const minor = Number(m[3] ?? 0);
  return major > 4 || (major === 4 && minor >= 6);
}

/** The `max_tokens`, `thinking` and effort for a request: a budget always stays under max_tokens. */
function thinkingParams(
  request: ModelRequest,
): Pick<MessageCreateParamsStreaming, "max_tokens" | "thinking" | "output_config"> {
  if (!request.effort) return { max_tokens: request.maxTokens };
  if (usesAdaptiveThinking(request.model)) {
    return {
      max_tokens: request.maxTokens,
      thinking: { type: "adaptive" },
      output_config: { effort: request.effort },
    };
  }
  const budget = THINKING_BUDGET[request.effort];
  const maxTokens = budget < request.maxTokens ? request.maxTokens : budget + request.maxTokens;
  return { max_tokens: maxTokens, thinking: { type: "enabled", budget_tokens: budget } };
}

/**
 * The Anthropic Messages request for a protocol request: cache marks become `cache_control`
 * breakpoints (on a system section, the last tool, or a message's last block), effort becomes
 * adaptive thinking with that effort on current models, an extended-thinking budget on older
 * ones (and temperature is left out, as thinking requires).
 */
export function toAnthropicParams(request: ModelRequest): MessageCreateParamsStreaming {
  const systemMarks = new Set<number>();
  const messageMarks = new Set<number>();
  let toolsMarked = false;
  for (const mark of request.cacheMarks) {
    if (mark.target === "system") systemMarks.add(mark.index);
    else if (mark.target === "message") messageMarks.add(mark.index);
    else toolsMarked = true;
  }
  const system: TextBlockParam[] = request.system.map((s, i) => ({
    type: "text",
    text: s.text,
    ...(systemMarks.has(i) ? { cache_control: EPHEMERAL } : {}),
  }));
  const tools: Tool[] = request.tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: "object", ...t.inputSchema },
    ...(toolsMarked && i === request.tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  const thinking = thinkingParams(request);
  return {
    model: request.model,
    stream: true,
    ...thinking,
    messages: request.messages.map((m, i) => message(m, messageMarks.has(i))),
    ...(system.length > 0 ? { system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(request.temperature !== undefined && !thinking.thinking
      ? { temperature: request.temperature }
      : {}),
  };
}
