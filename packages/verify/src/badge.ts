import type { Badge, CheckId, CheckRecord, VerificationMode } from "@z-engine/protocol";

/** What the badge is read from. */
export interface BadgeInput {
  /** Whether files changed this turn (a write tool reported a path, or the fingerprint moved). */
  readonly filesChanged: boolean;
  readonly mode: VerificationMode;
  /** The session's check records, oldest first. */
  readonly records: readonly CheckRecord[];
  /** The workspace fingerprint now. */
  readonly currentFingerprint: string;
  /**
   * When the files last changed this turn (ms since the epoch, the clock of the records'
   * `startedAt`). Records that started earlier are stale. Absent when the change was seen
   * only through the fingerprint; freshness then rests on the fingerprint alone.
   */
  readonly lastChangeAt?: number;
  /** Checks that should cover this change (e.g. the selected test checks), named as missing when they have no record. */
  readonly expected?: readonly CheckId[];
  /**
   * Runs of a check's own command through plain Bash this turn (same command, same folder).
   * They are not evidence (a shell can redefine `npm`), but an Unverified badge names the
   * ones that ran after the last change, so the user sees why their passing run did not count.
   */
  readonly viaBash?: readonly BashCheckRun[];
}

/** A check's command run through plain Bash: which check, the command as typed, when it started (ms). */
export interface BashCheckRun {
  readonly checkId: CheckId;
  readonly command: string;
  readonly at: number;
}

const EVIDENCE_KINDS = new Set(["test", "build", "typecheck"]);

/** A record is fresh when it ran after the last change and its fingerprint matches the files now. */
export function isFresh(
  record: CheckRecord,
  currentFingerprint: string,
  lastChangeAt?: number,
): boolean {
  if (lastChangeAt !== undefined && record.startedAt < lastChangeAt) return false;
  return record.fingerprintAfter === currentFingerprint;
}

function describeRun(record: CheckRecord): string {
  const parts: string[] = [];
  if (record.exitCode === null) parts.push("killed before it exited");
  else if (!record.passed) parts.push(`exit ${record.exitCode}`);
  const c = record.counts;
  if (c !== null) {
    const total = c.passed + c.failed;
    parts.push(c.failed > 0 ? `${c.failed} of ${total} tests failed` : `${c.passed} tests passed`);
  }
  return parts.length === 0 ? record.checkId : `${record.checkId} (${parts.join("; ")})`;
}

const list = (items: readonly string[]) => items.join(", ");

/**
 * The turn's verification badge, read from check records only (design.md §3): only fresh
 * records count. Failed when the latest fresh run of any check failed; else Verified when
 * a fresh test, build or typecheck run passed; else Unverified with a reason naming the
 * stale checks, the missing ones, or the lint and format checks that were all that ran.
 * A failure from before the last change is stale, not Failed. Not applicable when no
 * files changed or the mode is off. Pure; never throws.
 */
export function assessBadge(input: BadgeInput): Badge {
  if (input.mode === "off")
    return { status: "notApplicable", reason: "Verification is off.", checks: [] };
  if (!input.filesChanged) {
    return { status: "notApplicable", reason: "No files changed in this turn.", checks: [] };
  }
  const latest = new Map<CheckId, CheckRecord>();
  const latestFresh = new Map<CheckId, CheckRecord>();
  for (const record of input.records) {
    latest.set(record.checkId, record);
    if (isFresh(record, input.currentFingerprint, input.lastChangeAt))
      latestFresh.set(record.checkId, record);
  }
  const fresh = [...latestFresh.values()];
  const failed = fresh.filter((r) => !r.passed);
  if (failed.length > 0) {
    return {
      status: "failed",
      reason: `Failed after the last change: ${list(failed.map(describeRun))}.`,
      checks: failed.map((r) => r.checkId),
    };
  }
  const proving = fresh.filter((r) => EVIDENCE_KINDS.has(r.kind));
  if (proving.length > 0) {
    return {
      status: "verified",
      reason: `Passed after the last change: ${list(proving.map(describeRun))}.`,
      checks: proving.map((r) => r.checkId),
    };
  }
  return unverified(input, latest, fresh);
}

function unverified(
  input: BadgeInput,
  latest: Map<CheckId, CheckRecord>,
  fresh: CheckRecord[],
): Badge {
  const stale = [...latest.keys()].filter((id) => !fresh.some((r) => r.checkId === id));
  const missing = (input.expected ?? []).filter((id) => !latest.has(id));
  const lintOnly = fresh.map((r) => r.checkId);
  const bash = bashRunsAfterChange(input);
  const parts: string[] = [];
  if (bash.length > 0) {
    const commands = [...new Set(bash.map((r) => r.command))];
    const it = commands.length === 1 ? "it" : "them";
    parts.push(
      `${list(commands)} ran through Bash after the change; run ${it} with Verify to record ${it}`,
    );
  }
  if (lintOnly.length > 0)
    parts.push(`only lint and format checks ran since the change (${list(lintOnly)})`);
  if (stale.length > 0) parts.push(`stale, files changed after they ran: ${list(stale)}`);
  if (missing.length > 0) parts.push(`missing, never run: ${list(missing)}`);
  if (parts.length === 0) parts.push("no check ran since the change");
  const text = parts.join("; ");
  return {
    status: "unverified",
    // A run through Bash is the news the user needs first: their test passed, and why it did not count.
    reason:
      bash.length > 0
        ? `${text}.`
        : `No passing test, build or typecheck after the last change: ${text}.`,
    checks: [...new Set([...bash.map((r) => r.checkId), ...stale, ...missing, ...lintOnly])],
  };
}

/** The Bash runs of checks that started at or after the last change (all of the turn's when its time is unknown). */
function bashRunsAfterChange(input: BadgeInput): BashCheckRun[] {
  const after = input.lastChangeAt;
  return (input.viaBash ?? []).filter((r) => after === undefined || r.at >= after);
}
