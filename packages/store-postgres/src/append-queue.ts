import { checkRecord, type LogRecord, StoreError } from "@z-engine/store";
import { type Database, query } from "./database.js";

/** One record waiting for its commit. */
export interface PendingRecord {
  /** '' for the session's own log, else the subagent's id. */
  readonly agentId: string;
  readonly record: LogRecord;
  readonly line: string;
  resolve(): void;
  reject(error: unknown): void;
}

/** The most records one statement carries (and about the most bytes). */
const MAX_ROWS = 1000;
const MAX_BYTES = 8 * 1024 * 1024;

/** A record as the text of its row; throws `StoreError` (`invalidRecord`) as the file store does. */
export function recordLine(record: LogRecord): string {
  const check = checkRecord(record);
  if (check.status !== "ok") {
    const why = check.status === "unknown" ? `unknown kind ${check.kind}` : check.reason;
    throw new StoreError("invalidRecord", `refusing to append a bad record: ${why}`);
  }
  try {
    return JSON.stringify(record);
  } catch (error) {
    throw new StoreError("invalidRecord", "record cannot be serialised", { cause: error });
  }
}

/** Takes the next batch off the queue: in order, at most `MAX_ROWS` rows and about `MAX_BYTES`. */
export function takeBatch(queue: PendingRecord[]): PendingRecord[] {
  let bytes = 0;
  let n = 0;
  while (n < queue.length && n < MAX_ROWS && (n === 0 || bytes < MAX_BYTES)) {
    bytes += (queue[n] as PendingRecord).line.length;
    n++;
  }
  return queue.splice(0, n);
}

/**
 * What writing a batch came to: committed; not written because the lease was taken over;
 * not committed (the statement failed); or unknown (it failed and the sequence could not be
 * read back: the session cannot tell what its log holds and must be reopened).
 */
export type BatchOutcome =
  | { readonly status: "committed" | "leaseLost" }
  | { readonly status: "failed" | "unknown"; readonly error: unknown };

/**
 * Writes a batch as one statement (one transaction) fenced by the lease token, so a writer
 * whose lease was taken over writes nothing. `seq` is the session's sequence before the
 * batch. When the statement fails (a dropped connection, a server restart), whether it
 * committed is read back from the session's sequence, so a record the log holds is never
 * reported lost. Never rejects.
 */
export async function writeBatch(
  db: Database,
  session: { readonly id: string; readonly token: string; readonly seq: number },
  batch: readonly PendingRecord[],
): Promise<BatchOutcome> {
  const agents: string[] = [];
  const kinds: string[] = [];
  const bodies: string[] = [];
  for (const p of batch) {
    agents.push(p.agentId);
    kinds.push(p.record.kind);
    bodies.push(p.line);
  }
  const { id, token } = session;
  const values = [id, token, session.seq, agents, kinds, bodies];
  try {
    const result = await db.pool.query(db.sql.append, values);
    return { status: result.rowCount === batch.length ? "committed" : "leaseLost" };
  } catch (error) {
    try {
      const { rows } = await query<{ next_seq: string }>(
        db,
        db.sql.sequenceOf,
        [id, token],
        "io",
        "",
      );
      const now = rows[0] === undefined ? undefined : Number(rows[0].next_seq);
      if (now === session.seq + batch.length) return { status: "committed" };
      if (now === undefined) return { status: "leaseLost" };
      return now === session.seq ? { status: "failed", error } : { status: "unknown", error };
    } catch {
      return { status: "unknown", error };
    }
  }
}
