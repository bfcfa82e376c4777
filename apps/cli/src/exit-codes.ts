/**
 * The one place exit codes are chosen (design.md §5): 0 completed, 1 failed or budget
 * exhausted, 2 bad usage, 130 cancelled. Configuration problems are notices, never exit codes.
 */

/** The exit codes of `zeng`. */
export const EXIT = {
  /** The turn completed (or a command such as `zeng trust` did its work). */
  ok: 0,
  /** The turn failed, ran out of budget, was blocked, or the session could not be opened. */
  failed: 1,
  /** An unknown flag, a bad value, a missing argument. */
  usage: 2,
  /** SIGINT (or SIGTERM) cancelled the turn. */
  cancelled: 130,
} as const;

/** The outcomes a turn can end with; `null` means a UserPromptSubmit hook blocked the prompt. */
export type Outcome =
  | "completed"
  | "cancelled"
  | "failed"
  | "budgetExhausted"
  | "interrupted"
  | null;

/** The exit code for a turn's outcome. Never throws. */
export function exitCodeFor(outcome: Outcome): number {
  switch (outcome) {
    case "completed":
      return EXIT.ok;
    case "cancelled":
      return EXIT.cancelled;
    default:
      return EXIT.failed;
  }
}
