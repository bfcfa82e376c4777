import type { ContentBlock, ToolCallId } from "@z-engine/protocol";

/** An assistant message's content with unique tool call ids, and the calls' input errors by id. */
export interface UniqueToolUses {
  readonly content: ContentBlock[];
  /** Tool calls whose arguments were not valid JSON, with why, by their (unique) ids. */
  readonly invalid: Map<string, string>;
  /** The ids given to calls that repeated an earlier call's id, as `[given, new]`. */
  readonly renamed: readonly (readonly [string, string])[];
}

/**
 * Makes every tool call of one response carry its own id. A model (or a provider's adapter)
 * that sends two calls with the same id would otherwise get one result for both, and every
 * provider refuses the next request: Anthropic wants one `tool_result` per `tool_use` id,
 * OpenAI one tool message per call. The first call keeps its id; each later one gets
 * `<id>_2`, `<id>_3`, ... (the first free one), before the message is recorded, so the log,
 * the events, the results and the next request all agree. `inputErrors` holds each call's
 * input error (or undefined) in the order the calls came. Pure.
 */
export function uniqueToolUses(
  content: readonly ContentBlock[],
  inputErrors: readonly (string | undefined)[],
): UniqueToolUses {
  const used = new Set<string>();
  for (const block of content) if (block.type === "toolUse") used.add(block.id);
  const seen = new Set<string>();
  const invalid = new Map<string, string>();
  const renamed: (readonly [string, string])[] = [];
  let index = 0;
  const out = content.map((block): ContentBlock => {
    if (block.type !== "toolUse") return block;
    const error = inputErrors[index++];
    let id: string = block.id;
    if (seen.has(id)) {
      let n = 2;
      while (used.has(`${block.id}_${n}`)) n++;
      id = `${block.id}_${n}`;
      used.add(id);
      renamed.push([block.id, id]);
    }
    seen.add(id);
    if (error !== undefined) invalid.set(id, error);
    return id === block.id ? block : { ...block, id: id as ToolCallId };
  });
  return { content: out, invalid, renamed };
}
