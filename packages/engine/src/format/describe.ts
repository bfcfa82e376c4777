import type { Badge, CheckRecord, EngineEvent, Usage } from "@z-engine/protocol";

/** The badge as people read it: "Verified", "Unverified", "Failed" or "No badge". */
export function badgeLabel(badge: Badge): string {
  switch (badge.status) {
    case "verified":
      return "Verified";
    case "unverified":
      return "Unverified";
    case "failed":
      return "Failed";
    default:
      return "No badge";
  }
}

/** Seconds with one decimal: "1.2 s". */
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

/** One line for a recorded check: "check npm:test failed (exit 1; 0 passed, 1 failed)". */
export function formatCheck(record: CheckRecord): string {
  const exit = record.exitCode === null ? "killed" : `exit ${record.exitCode}`;
  const counts = record.counts
    ? `; ${record.counts.passed} passed, ${record.counts.failed} failed`
    : "";
  return `check ${record.checkId} ${record.passed ? "passed" : "failed"} (${exit}${counts})`;
}

/**
 * One line for an event, as the CLI's text output prints it on stderr (tool calls, approval
 * requests and denials, checks, retries, notices, trust, compaction), or undefined for the
 * events it does not print as a line (text deltas stream as they are; the rest are silent).
 * No trailing newline. Pure; never throws.
 */
export function formatEvent(event: EngineEvent): string | undefined {
  switch (event.type) {
    case "approvalRequested":
      return `? ${event.title} (${event.reason})`;
    case "toolStarted":
      return `● ${event.title}`;
    case "toolFinished":
      // A denial was already reported by its approvalResolved line.
      return event.status === "ok" || event.status === "denied"
        ? undefined
        : `  └ ${event.toolName} ${event.status}`;
    case "approvalResolved":
      return event.by === "headless" || event.decision.type === "deny"
        ? `  └ denied: ${event.reason ?? "by the user"}`
        : undefined;
    case "checkRecorded":
      return `  └ ${formatCheck(event.record)}`;
    case "retrying":
      return `zeng: ${event.reason}: ${event.message}; retrying (attempt ${event.attempt + 1} of ${event.maxAttempts}) in ${formatSeconds(event.delayMs)}`;
    case "notice":
      return `zeng: ${event.level}: ${event.message}`;
    case "trustRequired":
      return `zeng: ${event.projectRoot} is not trusted, so its settings for ${event.withheld.join(", ")} are ignored; \`zeng trust\` it to apply them`;
    case "compacted":
      return `zeng: compacted the conversation (${event.marker.tokensBefore} → ${event.marker.tokensAfter} tokens)`;
    default:
      return undefined;
  }
}
