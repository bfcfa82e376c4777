import type { FakeProviderRequest } from "@z-engine/testkit";

/** One message of a wire request, the same for both formats. */
export interface WireMessage {
  readonly role: "user" | "assistant" | "tool" | "system";
  readonly texts: readonly string[];
  /** Tool calls (assistant) by id and name. */
  readonly calls: ReadonlyArray<{ readonly id: string; readonly name: string }>;
  /** Ids of the tool results this message carries (Anthropic user, OpenAI tool). */
  readonly results: readonly string[];
}

type Json = Record<string, unknown>;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const asObject = (v: unknown): Json => (typeof v === "object" && v !== null ? (v as Json) : {});

function textsOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  return asArray(content).flatMap((raw) => {
    const b = asObject(raw);
    return b.type === "text" && typeof b.text === "string" ? [b.text] : [];
  });
}

function anthropicMessage(m: Json): WireMessage {
  const blocks = asArray(m.content).map(asObject);
  return {
    role: m.role === "assistant" ? "assistant" : "user",
    texts: textsOf(m.content),
    calls: blocks.flatMap((b) =>
      b.type === "tool_use" ? [{ id: String(b.id), name: String(b.name) }] : [],
    ),
    results: blocks.flatMap((b) => (b.type === "tool_result" ? [String(b.tool_use_id)] : [])),
  };
}

function openAiMessage(m: Json): WireMessage {
  const role = m.role === "assistant" || m.role === "tool" || m.role === "system" ? m.role : "user";
  return {
    role,
    texts: role === "tool" ? [] : textsOf(m.content),
    calls: asArray(m.tool_calls).map((raw) => {
      const c = asObject(raw);
      return { id: String(c.id), name: String(asObject(c.function).name) };
    }),
    results: role === "tool" ? [String(m.tool_call_id)] : [],
  };
}

/** The messages of a wire request, in order (OpenAI's system message included). */
export function wireMessages(request: FakeProviderRequest): WireMessage[] {
  const messages = asArray(asObject(request.body).messages).map(asObject);
  return messages.map(request.format === "anthropic" ? anthropicMessage : openAiMessage);
}

/** The names of the tools a wire request offers. */
export function wireToolNames(request: FakeProviderRequest): string[] {
  return asArray(asObject(request.body).tools).map((raw) => {
    const t = asObject(raw);
    return String(t.name ?? asObject(t.function).name);
  });
}
