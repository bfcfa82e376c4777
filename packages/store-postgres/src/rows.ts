import { type ParsedLog, parseLog } from "@z-engine/store";

/** One stored record: its place in the session's sequence and its JSON text. */
export interface RecordRow {
  readonly seq: string | number;
  readonly body: string;
}

/**
 * Parses rows as the file reader parses lines: intact records, damaged rows and unknown
 * kinds reported (their `line` is the row's `seq`), never thrown. A row holding a raw
 * newline (written by hand: the store never writes one) is read as one record, the newline
 * taken as the whitespace JSON allows between tokens.
 */
export function parseRows(rows: readonly RecordRow[]): ParsedLog {
  let text = "";
  for (const row of rows)
    text += `${row.body.includes("\n") ? row.body.replaceAll("\n", " ") : row.body}\n`;
  const parsed = parseLog(text);
  const seqOf = (line: number) => Number(rows[line - 1]?.seq ?? line);
  return {
    records: parsed.records,
    damage: parsed.damage.map((d) => ({ ...d, line: seqOf(d.line) })),
    unknown: parsed.unknown.map((u) => ({ ...u, line: seqOf(u.line) })),
    tornBytes: 0,
  };
}
