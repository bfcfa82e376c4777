import type { ContentBlock, Message } from "@z-engine/protocol";

const MAX_RESULT_CHARS = 2_000;
const MAX_INPUT_CHARS = 500;

function cut(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

function renderBlock(block: ContentBlock): string | null {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "thinking":
    case "redactedThinking":
      return null;
    case "toolUse":
      return `[tool call ${block.name} ${block.id}] ${cut(JSON.stringify(block.input) ?? "", MAX_INPUT_CHARS)}`;
    case "toolResult": {
      const text = block.content.map((p) => (p.type === "text" ? p.text : "[image]")).join("\n");
      const label = block.isError ? "tool error" : "tool result";
      return `[${label} ${block.toolUseId}]\n${cut(text, MAX_RESULT_CHARS)}`;
    }
  }
}

/**
 * A plain-text rendering of messages for the summarising model: roles, text, tool calls
 * with their (shortened) input, tool results cut to their start; thinking left out. Plain
 * text needs no tool definitions, so the request is valid for every provider.
 */
export function renderTranscript(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    const blocks = message.content.map(renderBlock).filter((b): b is string => b !== null);
    if (blocks.length > 0) parts.push(`## ${message.role}\n${blocks.join("\n\n")}`);
  }
  return parts.join("\n\n");
}

/** What a compaction dropped: counts, tool calls by name, and the files they named. */
export function describeDropped(messages: readonly Message[]): string {
  const tools = new Map<string, number>();
  const files = new Set<string>();
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type !== "toolUse") continue;
      tools.set(block.name, (tools.get(block.name) ?? 0) + 1);
      const input = block.input as Record<string, unknown> | null;
      const path = input?.file_path ?? input?.path;
      if (typeof path === "string") files.add(path);
    }
  }
  const first = messages[0]?.id ?? "";
  const last = messages[messages.length - 1]?.id ?? "";
  const lines = [`It replaces ${messages.length} earlier messages (${first} to ${last}).`];
  if (tools.size > 0) {
    const calls = [...tools].map(([name, count]) => `${name} ×${count}`).join(", ");
    lines.push(`Tool calls dropped: ${calls}.`);
  }
  if (files.size > 0) {
    const list = [...files].slice(0, 30);
    const more = files.size > list.length ? ` and ${files.size - list.length} more` : "";
    lines.push(`Files they touched: ${list.join(", ")}${more}.`);
  }
  return lines.join("\n");
}
