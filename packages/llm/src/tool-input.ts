import { type ModelEvent, newToolCallId, type ToolCallId } from "@z-engine/protocol";

/**
 * The ids of one response's tool calls, kept unique: a provider that repeats an id (two calls,
 * one id) would make the transcript invalid (every provider rejects a repeated tool_use id, and
 * the second call could never be answered), so a repeat gets a fresh `newToolCallId()` and both
 * calls run and are answered. A missing id gets one too.
 */
export class ToolCallIds {
  private readonly seen = new Set<string>();

  /** `id` the first time it is seen in this response, a fresh id after that (or when empty). */
  unique(id: string | undefined): ToolCallId {
    const out = id === undefined || id === "" || this.seen.has(id) ? newToolCallId() : id;
    this.seen.add(out);
    return out as ToolCallId;
  }
}

/**
 * The `toolCall` event for assembled arguments. Empty arguments are `{}`; arguments that are
 * not a JSON object give `input: {}` with `rawInput` and `inputError`, so the engine can
 * answer the model with an error result instead of running the tool.
 */
export function toolCallEvent(id: ToolCallId, name: string, raw: string): ModelEvent {
  if (raw.trim() === "") return { type: "toolCall", id, name, input: {} };
  try {
    const input: unknown = JSON.parse(raw);
    if (typeof input === "object" && input !== null && !Array.isArray(input)) {
      return { type: "toolCall", id, name, input };
    }
    return {
      type: "toolCall",
      id,
      name,
      input: {},
      rawInput: raw,
      inputError: "the tool input is not a JSON object",
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      type: "toolCall",
      id,
      name,
      input: {},
      rawInput: raw,
      inputError: `the tool input is not valid JSON: ${why}`,
    };
  }
}
