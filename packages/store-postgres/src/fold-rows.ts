import { metaFromReplay, type ParsedLog, ReplayFold, type SessionSummary } from "@z-engine/store";
import { parseRows, type RecordRow } from "./rows.js";

/** A session's rows folded, with what the parse found and where the fold started. */
export interface FoldedRows {
  readonly fold: ReplayFold;
  readonly parsed: ParsedLog;
  /** The seq of the resume point the rows start with, or null. */
  readonly resumePoint: number | null;
}

/**
 * Folds rows read from the last resume point on (or the whole log): from the point when the
 * first row is one (its records before are never read), else from the start. The fold starts
 * over at each resume point (so its memory follows the working set), except a `whole` one,
 * which keeps every record's history (after a rewind reached before the point). Never throws.
 */
export function foldFromResumePoint(
  rows: readonly RecordRow[],
  options: { readonly whole?: boolean } = {},
): FoldedRows {
  const parsed = parseRows(rows);
  const [first, ...rest] = parsed.records;
  if (options.whole !== true && first?.kind === "resumePoint") {
    const fold = ReplayFold.fromResumePoint(first, { rebase: true });
    for (const record of rest) fold.apply(record);
    return { fold, parsed, resumePoint: Number(rows[0]?.seq) };
  }
  const fold = new ReplayFold({ rebase: options.whole !== true });
  for (const record of parsed.records) fold.apply(record);
  return { fold, parsed, resumePoint: null };
}

/** A chat-list entry built from a session's rows (a session whose meta was never written). */
export function summaryFromRows(
  id: string,
  rows: readonly RecordRow[],
  logBytes: number,
): SessionSummary {
  const replay = foldFromResumePoint(rows).fold.snapshot();
  return { ...metaFromReplay(id, replay, logBytes, 0), source: "folder" };
}
