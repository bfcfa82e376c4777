import { z } from "zod";
import { lazily } from "./lazy.js";
import { ArtifactRef } from "./artifact.js";
import { type ContentBlock, Message } from "./content.js";
import { MessageId, ToolCallId } from "./ids.js";

/**
 * The record of old tool results cleared from the model's working set to relieve context
 * pressure. The originals went to `artifact` (null when they could not be stored).
 */
export const ToolResultClearing = lazily(() =>
  z.object({
    calls: z.array(z.object({ toolUseId: ToolCallId, artifact: ArtifactRef.nullable() })).min(1),
  }),
);
export type ToolResultClearing = z.infer<typeof ToolResultClearing>;

/** What a cleared tool result reads as, in the live working set and after replay alike. */
export function clearedToolResultText(artifact: ArtifactRef | null): string {
  return artifact === null
    ? "[Old tool result cleared to save context.]"
    : `[Old tool result cleared to save context. The full output is stored as ${artifact.ref}.]`;
}

/**
 * Replaces the content of each cleared tool result with its placeholder. Returns a new
 * array; messages without a cleared result are returned as the same objects. Unknown call
 * ids are ignored.
 */
export function applyToolResultClearing(
  messages: readonly Message[],
  clearing: ToolResultClearing,
): Message[] {
  const cleared = new Map(clearing.calls.map((c) => [c.toolUseId as string, c.artifact]));
  return messages.map((message) => {
    if (message.role !== "user") return message;
    let changed = false;
    const content = message.content.map((block): ContentBlock => {
      if (block.type !== "toolResult" || !cleared.has(block.toolUseId)) return block;
      changed = true;
      const text = clearedToolResultText(cleared.get(block.toolUseId) ?? null);
      return { ...block, content: [{ type: "text", text }] };
    });
    return changed ? { ...message, content } : message;
  });
}

/**
 * What a compaction dropped and kept, for `/context` and the Context screen (absent in logs
 * written before it existed).
 */
export const CompactionLedger = lazily(() =>
  z.object({
    /** The dropped messages as runs of the working set, in order: first and last id, how many. */
    ranges: z.array(
      z.object({ first: MessageId, last: MessageId, count: z.number().int().positive() }),
    ),
    /** Artifacts the dropped messages named (long outputs, cleared results): still stored. */
    artifacts: z.array(z.string()),
    /** The user's latest request was among the dropped: the summary quotes it verbatim. */
    requestKept: z.boolean(),
    /** Open todo items the summary lists verbatim. */
    todosKept: z.number().int().nonnegative(),
  }),
);
export type CompactionLedger = z.infer<typeof CompactionLedger>;

/**
 * The record of a compaction: older history replaced by a summary. `droppedMessageIds`
 * names what it dropped, in order; `summary` is the user message that takes their place;
 * `ledger` says what it dropped and kept.
 */
export const Compaction = lazily(() =>
  z.object({
    trigger: z.enum(["auto", "manual", "overflow"]),
    summary: Message,
    droppedMessageIds: z.array(MessageId).min(1),
    tokensBefore: z.number().int().nonnegative(),
    tokensAfter: z.number().int().nonnegative(),
    ledger: CompactionLedger.optional(),
  }),
);
export type Compaction = z.infer<typeof Compaction>;

/**
 * Removes the dropped messages and puts the summary where the first of them stood (at the
 * start when none is present). Returns a new array; the input is not changed.
 */
export function applyCompaction(messages: readonly Message[], compaction: Compaction): Message[] {
  const dropped = new Set<string>(compaction.droppedMessageIds);
  const out: Message[] = [];
  let placed = false;
  for (const message of messages) {
    if (dropped.has(message.id)) {
      if (!placed) {
        out.push(compaction.summary);
        placed = true;
      }
      continue;
    }
    out.push(message);
  }
  if (!placed) out.unshift(compaction.summary);
  return out;
}
