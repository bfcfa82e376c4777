import type { Message } from "@z-engine/protocol";
import type { TokenEstimator } from "./tokens.js";

/**
 * The legal split points of a transcript: `legal[b]` is true when dropping `messages[0..b)`
 * and keeping `messages[b..)` separates no tool call from its result (in either direction).
 * `legal[0]` and `legal[n]` are always true. Pure; never throws.
 */
export function legalSplitPoints(messages: readonly Message[]): boolean[] {
  const n = messages.length;
  // Every occurrence counts, so that even a transcript with repeated call ids splits safely.
  const callsAt = new Map<string, number[]>();
  messages.forEach((message, index) => {
    for (const block of message.content) {
      if (block.type !== "toolUse") continue;
      const list = callsAt.get(block.id);
      if (list === undefined) callsAt.set(block.id, [index]);
      else list.push(index);
    }
  });
  // Difference array over boundaries: a call at i answered at j forbids boundaries i+1..j.
  const diff = new Array<number>(n + 2).fill(0);
  messages.forEach((message, j) => {
    for (const block of message.content) {
      if (block.type !== "toolResult") continue;
      for (const i of callsAt.get(block.toolUseId) ?? []) {
        if (i === j) continue;
        const lo = Math.min(i, j) + 1;
        const hi = Math.max(i, j);
        diff[lo] = (diff[lo] ?? 0) + 1;
        diff[hi + 1] = (diff[hi + 1] ?? 0) - 1;
      }
    }
  });
  const legal: boolean[] = [];
  let open = 0;
  for (let b = 0; b <= n; b++) {
    open += diff[b] ?? 0;
    legal.push(open === 0);
  }
  return legal;
}

/** How much recent history a split keeps. */
export interface SplitOptions {
  readonly estimator: TokenEstimator;
  /** Keep at least about this many tokens of the most recent messages. */
  readonly keepRecentTokens: number;
  /** Keep at least this many messages (default 1). */
  readonly minKeepMessages?: number;
}

/**
 * Where to split a transcript for compaction: the index of the first kept message, so that
 * `messages[0..k)` are summarised and `messages[k..)` stay. It is the latest legal point
 * that still keeps `keepRecentTokens` of recent messages, and may fall inside one long turn
 * (between rounds). Returns `null` when nothing can be dropped: the transcript is smaller
 * than what must be kept, or no legal point drops anything. Pure; never throws.
 */
export function findSplitPoint(messages: readonly Message[], options: SplitOptions): number | null {
  const n = messages.length;
  const minKeep = Math.max(1, options.minKeepMessages ?? 1);
  let kept = 0;
  let target = n - minKeep;
  for (let i = n - 1; i >= 0; i--) {
    const message = messages[i];
    if (message !== undefined) kept += options.estimator.estimateMessage(message);
    if (kept >= options.keepRecentTokens) {
      target = Math.min(target, i);
      break;
    }
    if (i === 0) return null;
  }
  const legal = legalSplitPoints(messages);
  for (let b = target; b >= 1; b--) if (legal[b]) return b;
  return null;
}
