import { type ModelEvent, newToolCallId, type ToolCallId } from "@z-engine/protocol";

/**
 * The ids of one response's tool calls: a call the provider sent without an id gets a fresh
 * `newToolCallId()`. A repeated id passes through as the provider sent it: the engine makes
 * a response's ids unique in one place (`batch/unique-ids.ts`), for every `ModelClient`, and
 * says so in a notice.
 */
export class ToolCallIds {
  /** `id` as given, or a fresh id when it is missing or empty. */
  unique(id: string | undefined): ToolCallId {
    return (id === undefined || id === "" ? newToolCallId() : id) as ToolCallId;
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
