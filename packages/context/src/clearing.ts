import {
  type ArtifactRef,
  type ArtifactSink,
  applyToolResultClearing,
  type Message,
  type ToolCallId,
  type ToolResultBlock,
  type ToolResultClearing,
} from "@z-engine/protocol";
import type { TokenEstimator } from "./tokens.js";

/** When and what to clear. */
export interface ToolResultClearingOptions {
  readonly windowTokens: number;
  readonly estimator: TokenEstimator;
  /** Tokens outside the messages (system sections and tools); default 0. */
  readonly baseTokens?: number;
  /** Clearing starts above this share of the window (default 50). */
  readonly thresholdPercent?: number;
  /** The most recent tool results always kept (default 5). */
  readonly keepLast?: number;
  /** Results smaller than this are not worth a placeholder (default 100 tokens). */
  readonly minTokens?: number;
}

/** The results planned for clearing, oldest first; the engine's pressure seam may edit the list. */
export interface ToolResultClearingPlan {
  readonly toolUseIds: readonly ToolCallId[];
  /** Estimated tokens of the request's messages plus `baseTokens` before clearing. */
  readonly tokensBefore: number;
  /** Estimated tokens the plan frees. */
  readonly tokensFreed: number;
}

const CLEARED_PREFIX = "[Old tool result cleared to save context";

function isCleared(block: ToolResultBlock): boolean {
  const first = block.content[0];
  return (
    block.content.length === 1 && first?.type === "text" && first.text.startsWith(CLEARED_PREFIX)
  );
}

function resultTokens(block: ToolResultBlock, estimator: TokenEstimator): number {
  return estimator.estimateMessage({ role: "user", content: [block] });
}

/**
 * Plans clearing old tool results when the estimated context is above the threshold
 * (default 50% of the window): every result but the last `keepLast`, not cleared yet and
 * at least `minTokens` big. Returns `null` below the threshold or when nothing qualifies.
 * Pure; never throws.
 */
export function planToolResultClearing(
  messages: readonly Message[],
  options: ToolResultClearingOptions,
): ToolResultClearingPlan | null {
  const { estimator } = options;
  const tokensBefore = estimator.estimateMessages(messages) + (options.baseTokens ?? 0);
  const threshold = (options.windowTokens * (options.thresholdPercent ?? 50)) / 100;
  if (tokensBefore <= threshold) return null;
  const results: ToolResultBlock[] = [];
  for (const message of messages) {
    if (message.role !== "user") continue;
    for (const block of message.content) if (block.type === "toolResult") results.push(block);
  }
  const candidates = results.slice(0, Math.max(0, results.length - (options.keepLast ?? 5)));
  const minTokens = options.minTokens ?? 100;
  const toolUseIds: ToolCallId[] = [];
  let tokensFreed = 0;
  for (const block of candidates) {
    if (isCleared(block)) continue;
    const tokens = resultTokens(block, estimator);
    if (tokens < minTokens) continue;
    toolUseIds.push(block.toolUseId);
    tokensFreed += tokens;
  }
  return toolUseIds.length === 0 ? null : { toolUseIds, tokensBefore, tokensFreed };
}

/** The outcome of clearing: the record to log and the working set with placeholders in place. */
export interface ClearedToolResults {
  readonly clearing: ToolResultClearing;
  readonly messages: Message[];
  /** Results whose original could not be stored (their placeholder names no artifact). */
  readonly failures: ReadonlyArray<{ toolUseId: ToolCallId; error: string }>;
}

function toolNames(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content)
      if (block.type === "toolUse") names.set(block.id, block.name);
  }
  return names;
}

function originalText(block: ToolResultBlock): string {
  return block.content
    .map((part) => (part.type === "text" ? part.text : `[image ${part.mediaType}]`))
    .join("\n");
}

/**
 * Writes the original of each planned result to `artifacts` and replaces it with a
 * placeholder naming the artifact (`applyToolResultClearing`). Ids not found are skipped;
 * returns `null` when none of the planned ids is present. A failed `put` does not stop the
 * rest: that result is still cleared, with a placeholder naming no artifact, and is listed
 * in `failures`. The input array is not changed. Never rejects.
 */
export async function clearToolResults(
  messages: readonly Message[],
  plan: Pick<ToolResultClearingPlan, "toolUseIds">,
  artifacts: ArtifactSink,
): Promise<ClearedToolResults | null> {
  const wanted = new Set<string>(plan.toolUseIds);
  const blocks = new Map<string, ToolResultBlock>();
  for (const message of messages) {
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (
        block.type === "toolResult" &&
        wanted.has(block.toolUseId) &&
        !blocks.has(block.toolUseId)
      ) {
        blocks.set(block.toolUseId, block);
      }
    }
  }
  if (blocks.size === 0) return null;
  const names = toolNames(messages);
  const failures: Array<{ toolUseId: ToolCallId; error: string }> = [];
  const calls = await Promise.all(
    [...blocks.values()].map(async (block) => {
      const name = `tool-result-${names.get(block.toolUseId) ?? "unknown"}-${block.toolUseId}.txt`;
      let artifact: ArtifactRef | null = null;
      try {
        artifact = await artifacts.put(name, originalText(block), { mediaType: "text/plain" });
      } catch (error) {
        failures.push({ toolUseId: block.toolUseId, error: String(error) });
      }
      return { toolUseId: block.toolUseId, artifact };
    }),
  );
  const clearing: ToolResultClearing = { calls };
  return { clearing, messages: applyToolResultClearing(messages, clearing), failures };
}
