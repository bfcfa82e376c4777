// Usage arithmetic for the fold: each costUpdated is a running total; the step is what changed.
import type { Usage } from "@z-engine/protocol";

const USAGE_KEYS = ["input", "output", "cacheRead", "cacheWrite", "costUsd"] as const;

/** `a - b`, field by field (b absent: a). */
export function minus(a: Usage, b: Usage | undefined): Usage {
  const out = { ...a };
  for (const k of USAGE_KEYS) out[k] = a[k] - (b?.[k] ?? 0);
  return out;
}

/** `a + b`, field by field (a absent: b). */
export function plus(a: Usage | undefined, b: Usage): Usage {
  const out = { ...b };
  for (const k of USAGE_KEYS) out[k] = (a?.[k] ?? 0) + b[k];
  return out;
}

/** Every token of a usage. */
export function tokensOf(u: Usage): number {
  return u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** `all` when it is more than `own` (subagents spent in the turn), else nothing. */
export function moreThan(all: Usage | undefined, own: Usage): { allAgents?: Usage } {
  if (!all) return {};
  return tokensOf(all) > tokensOf(own) || all.costUsd > own.costUsd ? { allAgents: all } : {};
}
