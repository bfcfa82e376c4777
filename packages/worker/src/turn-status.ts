import type { LogRecordOf, Replay } from "@z-engine/store";

/** Where a prompt job stands in its session's log when a worker opens it. */
export type JobTurnStatus =
  /** No turn of the job is in the log: run the prompt. */
  | { readonly status: "new" }
  /** The job's last turn ended (not by a crash): the job is done; nothing runs again. */
  | {
      readonly status: "ended";
      readonly turnId: string;
      readonly end: LogRecordOf<"turnEnded">;
      readonly turns: number;
    }
  /**
   * The job's last turn was cut short by a worker that stopped (still open at this open, or
   * closed as `interrupted` by an earlier one): continue the session in a new turn.
   */
  | { readonly status: "interrupted"; readonly turns: number };

/** Whether `turnId` is the job's own turn or one of its continuations (`<base>-c<n>`). */
const ofJob = (base: string, turnId: string) => turnId === base || turnId.startsWith(`${base}-c`);

/**
 * Reads the job's turns from the replay at open: the `turnStarted` and `turnEnded` records of
 * the transcript (from the last resume point on) and the session's last turn (which a
 * resume point keeps). Never throws.
 */
export function jobTurnStatus(replay: Replay, base: string): JobTurnStatus {
  let turns = 0;
  let lastEnd: LogRecordOf<"turnEnded"> | undefined;
  let lastStarted: string | undefined;
  for (const record of replay.transcript) {
    if (record.kind === "turnStarted" && ofJob(base, record.turnId)) {
      turns++;
      lastStarted = record.turnId;
      lastEnd = undefined;
    } else if (record.kind === "turnEnded" && record.turnId === lastStarted) lastEnd = record;
  }
  const last = replay.state.lastTurn;
  if (turns === 0 && last !== null && ofJob(base, last.turnId)) turns = 1; // before a resume point
  if (turns === 0) return { status: "new" };
  if (last !== null && ofJob(base, last.turnId) && last.status === "running")
    return { status: "interrupted", turns };
  if (lastEnd === undefined)
    return last?.status === "ended" && ofJob(base, last.turnId) && last.outcome !== "interrupted"
      ? { status: "ended", turnId: last.turnId, end: endOf(last.turnId, last.outcome), turns }
      : { status: "interrupted", turns };
  return lastEnd.outcome === "interrupted"
    ? { status: "interrupted", turns }
    : { status: "ended", turnId: lastEnd.turnId, end: lastEnd, turns };
}

// A turn whose end lies before the last resume point: only its outcome is known.
function endOf(
  turnId: string,
  outcome: LogRecordOf<"turnEnded">["outcome"],
): LogRecordOf<"turnEnded"> {
  return { kind: "turnEnded", v: 2, ts: 0, turnId, outcome } as unknown as LogRecordOf<"turnEnded">;
}
