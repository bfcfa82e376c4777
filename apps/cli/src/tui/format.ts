import type { Badge, Usage } from "@z-engine/protocol";

// The screen's own copies of the engine's short formats, so that the UI renders before the
// engine has loaded (importing the engine evaluates all of it).

/** "Verified", "Unverified", "Failed" or "No badge". */
export function badgeLabel(badge: Badge): string {
  const labels: Record<string, string> = {
    verified: "Verified",
    unverified: "Unverified",
    failed: "Failed",
  };
  return labels[badge.status] ?? "No badge";
}

/** "1.2 s" */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** "$0.0123" */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd >= 1 ? 2 : 4)}`;
}

/** "1234 in / 56 out tokens" */
export function formatTokens(usage: Usage): string {
  return `${usage.input + usage.cacheRead + usage.cacheWrite} in / ${usage.output} out tokens`;
}
