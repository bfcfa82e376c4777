import type { ModelEvent, ToolCallId } from "@z-engine/protocol";

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
