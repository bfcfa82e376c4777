/** A fetched prompt: its messages as text, in order. */
export interface PromptText {
  readonly description?: string;
  readonly messages: readonly { readonly role: "user" | "assistant"; readonly text: string }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function contentText(content: unknown): string {
  if (!isRecord(content)) return "";
  if (content.type === "text" && typeof content.text === "string") return content.text;
  if (content.type === "resource" && isRecord(content.resource)) {
    const r = content.resource;
    return typeof r.text === "string" ? r.text : `[binary resource ${String(r.uri)}]`;
  }
  if (content.type === "resource_link") return `Resource link: ${String(content.uri)}`;
  return `[${String(content.type)} content not shown]`;
}

/** A `prompts/get` result as text messages (non-text content becomes a note). Never throws. */
export function promptMessages(result: unknown): PromptText {
  const messages = isRecord(result) && Array.isArray(result.messages) ? result.messages : [];
  const description =
    isRecord(result) && typeof result.description === "string" ? result.description : undefined;
  return {
    ...(description ? { description } : {}),
    messages: messages.map((m) => ({
      role: isRecord(m) && m.role === "assistant" ? "assistant" : "user",
      text: isRecord(m) ? contentText(m.content) : "",
    })),
  };
}
