// How numbers, costs, times and outcomes read on the page.
import type { Effort, PermissionMode, Usage } from "@z-engine/protocol";

// One formatter for the page: `toLocaleString("en-US")` builds a new one at each call, which
// was the largest piece of script in scrolling a long session (web.session1000's profile).
let grouping: Intl.NumberFormat | undefined;

/** A whole number with thousands separators ("12,345"). */
export function formatCount(value: number): string {
  grouping ??= new Intl.NumberFormat("en-US");
  return grouping.format(value);
}

const n = formatCount;

/** Each permission mode's label, keyed by protocol's type (a new mode must get one here). */
export const MODE_LABEL: Readonly<Record<PermissionMode, string>> = {
  ask: "Ask before acting",
  acceptEdits: "Accept edits",
  plan: "Plan only",
  bypass: "Bypass (no asks)",
};
/** The permission modes, in protocol's order. */
export const MODES = Object.keys(MODE_LABEL) as PermissionMode[];

const EFFORT_ORDER: Readonly<Record<Effort, number>> = { low: 0, medium: 1, high: 2, max: 3 };
/** The effort levels, lowest first (keyed by protocol's type). */
export const EFFORTS = Object.keys(EFFORT_ORDER) as Effort[];

/** Dollars: cents for sums over a cent, four places below. */
export function formatCost(usd: number): string {
  return usd >= 0.01 || usd === 0 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** Tokens in thousands past 10,000. */
export function formatTokens(tokens: number): string {
  return tokens >= 10_000 ? `${(tokens / 1000).toFixed(tokens >= 100_000 ? 0 : 1)}k` : n(tokens);
}

/**
 * A usage line: all tokens, then input and output, then the cache's reads and writes when the
 * provider reported any, then the cost.
 */
export function formatUsage(u: Usage): string {
  const tokens = u.input + u.output + u.cacheRead + u.cacheWrite;
  const parts = [`${n(u.input)} in`, `${n(u.output)} out`];
  if (u.cacheRead > 0) parts.push(`${n(u.cacheRead)} cache read`);
  if (u.cacheWrite > 0) parts.push(`${n(u.cacheWrite)} cache write`);
  return `${n(tokens)} tokens (${parts.join(", ")}) · ${formatCost(u.costUsd)}`;
}

export const BADGE_LABEL: Record<string, string> = {
  verified: "Verified",
  unverified: "Unverified",
  failed: "Failed",
  notApplicable: "No code changed",
};

export const OUTCOME_LABEL: Record<string, string> = {
  completed: "completed",
  cancelled: "cancelled",
  failed: "failed",
  budgetExhausted: "stopped by a budget",
  interrupted: "interrupted",
};

/** "just now", "5 min ago", "3 h ago", "yesterday", else the date. */
export function relativeTime(ms: number, now = Date.now()): string {
  const seconds = Math.max(0, (now - ms) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 2 * 86_400) return "yesterday";
  return new Date(ms).toLocaleDateString();
}

/** The last part of a path. */
export function baseName(path: string): string {
  const parts = path.split("/").filter(Boolean);
  return parts.at(-1) ?? path;
}
