import type { Badge, CheckId, CheckRecord, VerificationMode } from "@z-engine/protocol";

/** `verification.max_continuations` when unset. */
export const DEFAULT_MAX_CONTINUATIONS = 3;

/** What the stop boundary should do next. */
export type StopVerdict =
  | { readonly action: "finish" }
  /** Run these checks (through the gate), record them, reassess the badge and ask again. */
  | { readonly action: "runChecks"; readonly checkIds: CheckId[] }
  /** Send the model back for another round with this reminder; counts as a continuation. */
  | { readonly action: "continue"; readonly reminder: string };

export interface StopVerdictInput {
  readonly mode: VerificationMode;
  /** Whether the project is trusted; auto and strict run nothing in an untrusted one. */
  readonly trusted: boolean;
  readonly filesChanged: boolean;
  /** The badge as it stands now. */
  readonly badge: Badge;
  /** The checks auto and strict run (see `autoCheckIds`). */
  readonly autoChecks: readonly CheckId[];
  /** Whether the auto checks already ran at this stop boundary (since the model last stopped). */
  readonly autoChecksRan: boolean;
  /** Continuations verification has already used this turn. */
  readonly continuationsUsed: number;
  readonly maxContinuations?: number;
  /** The session's records, oldest first: failing ones lend their output's end to the reminder. */
  readonly records?: readonly CheckRecord[];
}

const REMINDER_LINES = 30;
const REMINDER_CHARS = 6000;

function lastLines(text: string, count: number): string {
  const lines = text.trimEnd().split("\n");
  return lines.slice(Math.max(0, lines.length - count)).join("\n");
}

function failureReminder(badge: Badge, records: readonly CheckRecord[]): string {
  const sections = [`<verification>\n${badge.reason}`];
  for (const id of badge.checks) {
    const record = records.findLast((r) => r.checkId === id);
    if (record === undefined) continue;
    sections.push(
      `$ ${record.command}  (in ${record.cwd})\n${lastLines(record.outputTail, REMINDER_LINES)}`,
    );
  }
  let body = sections.join("\n\n");
  if (body.length > REMINDER_CHARS) body = `${body.slice(0, REMINDER_CHARS)}\n[...]`;
  return `${body}\nFix the failures, then run Verify again before finishing.\n</verification>`;
}

function evidenceReminder(badge: Badge, autoChecks: readonly CheckId[]): string {
  const which = autoChecks.length > 0 ? ` (${autoChecks.join(", ")})` : "";
  return `<verification>\nThe change is not verified yet. ${badge.reason}\nRun the relevant checks with Verify${which} and make them pass before finishing.\n</verification>`;
}

/**
 * The verification verdict at the stop boundary of the main agent, as a pure function.
 * off and report: finish (report only computes the badge). Untrusted project, no file
 * change, or a Verified / not-applicable badge: finish. auto: when evidence is missing
 * (Unverified) and the auto checks have not run at this boundary, run them; a Failed
 * badge is sent back to the model with the failing output's end. strict: as auto, and an
 * Unverified badge after the auto checks ran is sent back too, asking for evidence. Send-
 * backs stop at `maxContinuations` (default 3); running checks is not a send-back.
 */
export function stopVerdict(input: StopVerdictInput): StopVerdict {
  const { mode, badge } = input;
  if (mode === "off" || mode === "report" || !input.trusted || !input.filesChanged)
    return { action: "finish" };
  if (badge.status === "verified" || badge.status === "notApplicable") return { action: "finish" };
  const capReached =
    input.continuationsUsed >= (input.maxContinuations ?? DEFAULT_MAX_CONTINUATIONS);
  if (badge.status === "failed") {
    return capReached
      ? { action: "finish" }
      : { action: "continue", reminder: failureReminder(badge, input.records ?? []) };
  }
  if (!input.autoChecksRan && input.autoChecks.length > 0) {
    return { action: "runChecks", checkIds: [...input.autoChecks] };
  }
  if (mode === "strict" && !capReached) {
    return { action: "continue", reminder: evidenceReminder(badge, input.autoChecks) };
  }
  return { action: "finish" };
}
