import { quoteSchema } from "./migrations.js";

/** The store's SQL for one schema, built once per store. */
export interface Statements {
  /** $1 id, $2 updated_at, $3 token, $4 owner, $5 lease ms. */
  readonly insertSession: string;
  /**
   * Appends rows to a session's logs in one statement, fenced by the lease token: the session
   * row is share-locked while the token holds it, so a takeover's UPDATE waits for this
   * statement's commit, and a statement behind a takeover sees the new token and writes no
   * row. $1 id, $2 token, $3 the seq before the rows, $4 agent ids, $5 kinds, $6 bodies.
   */
  readonly append: string;
  /** Takes the lease when free or expired. $1 id, $2 token, $3 owner, $4 lease ms. */
  readonly acquire: string;
  /** Extends the lease while the token holds it. $1 id, $2 token, $3 lease ms. */
  readonly renew: string;
  /** $1 id, $2 token. */
  readonly release: string;
  /** The chat-list meta, with the log's size and last activity it describes. $1 id, $2 token, $3 meta, $4 seq, $5 bytes, $6 updated_at. */
  readonly writeMeta: string;
  /** The session's last seq, and whether the token still holds its lease. $1 id, $2 token. */
  readonly sequenceOf: string;
  /** The owner and expiry of a session's lease. $1 id. */
  readonly leaseOf: string;
  /** Main-log rows from the last resume point on (all rows when none). $1 id. */
  readonly readFromResumePoint: string;
  /** Every row of one log. $1 id, $2 agent id ('' for the main log). */
  readonly readLog: string;
  /** Summaries for the chat list, newest first. */
  readonly list: string;
  /** Deletes a session whose lease is free or expired. $1 id. */
  readonly delete: string;
  /** $1 session, $2 ref, $3 name, $4 media type, $5 truncated, $6 data. */
  readonly putArtifact: string;
  /** $1 session, $2 ref. */
  readonly readArtifact: string;
}

/** Builds the statements of `schema`. Throws `StoreError` (`io`) for an unsafe schema name. */
export function statements(schema: string): Statements {
  const s = quoteSchema(schema);
  const lease = "now() + make_interval(secs => $LEASE::double precision / 1000)";
  const leaseAt = (n: number) => lease.replace("$LEASE", `$${n}`);
  return {
    insertSession: `INSERT INTO ${s}.zeng_sessions (id, updated_at, lease_token, lease_owner, lease_expires)
      VALUES ($1, $2, $3, $4, ${leaseAt(5)})`,
    append: `WITH owned AS (
        SELECT 1 FROM ${s}.zeng_sessions WHERE id = $1 AND lease_token = $2 FOR SHARE)
      INSERT INTO ${s}.zeng_records (session_id, agent_id, seq, kind, body)
      SELECT $1, r.agent, $3::bigint + r.n, r.kind, r.body
        FROM owned, unnest($4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS r(agent, kind, body, n)`,
    acquire: `UPDATE ${s}.zeng_sessions
         SET lease_token = $2, lease_owner = $3, lease_expires = ${leaseAt(4)}
       WHERE id = $1 AND (lease_token IS NULL OR lease_expires < now())
      RETURNING (SELECT COALESCE(max(seq), 0) FROM ${s}.zeng_records WHERE session_id = $1) AS next_seq,
        meta_seq, log_bytes`,
    renew: `UPDATE ${s}.zeng_sessions SET lease_expires = ${leaseAt(3)}
       WHERE id = $1 AND lease_token = $2`,
    release: `UPDATE ${s}.zeng_sessions SET lease_token = NULL, lease_owner = NULL, lease_expires = NULL
       WHERE id = $1 AND lease_token = $2`,
    writeMeta: `UPDATE ${s}.zeng_sessions
         SET meta = $3, meta_seq = $4, log_bytes = $5, updated_at = GREATEST(updated_at, $6)
       WHERE id = $1 AND lease_token = $2`,
    sequenceOf: `SELECT (SELECT COALESCE(max(seq), 0) FROM ${s}.zeng_records WHERE session_id = $1) AS next_seq
       FROM ${s}.zeng_sessions WHERE id = $1 AND lease_token = $2`,
    leaseOf: `SELECT lease_owner, lease_expires > now() AS held FROM ${s}.zeng_sessions WHERE id = $1`,
    readFromResumePoint: `SELECT seq, body FROM ${s}.zeng_records
       WHERE session_id = $1 AND agent_id = '' AND seq >= COALESCE(
         (SELECT max(seq) FROM ${s}.zeng_records
           WHERE session_id = $1 AND agent_id = '' AND kind = 'resumePoint'), 0)
       ORDER BY seq`,
    readLog: `SELECT seq, body FROM ${s}.zeng_records WHERE session_id = $1 AND agent_id = $2 ORDER BY seq`,
    list: `SELECT id, updated_at, meta, meta_seq, next_seq, log_bytes FROM ${s}.zeng_sessions
       ORDER BY updated_at DESC, id DESC`,
    delete: `DELETE FROM ${s}.zeng_sessions
       WHERE id = $1 AND (lease_token IS NULL OR lease_expires < now()) RETURNING id`,
    putArtifact: `INSERT INTO ${s}.zeng_artifacts (session_id, ref, name, media_type, truncated, data)
      VALUES ($1, $2, $3, $4, $5, $6)`,
    readArtifact: `SELECT data FROM ${s}.zeng_artifacts WHERE session_id = $1 AND ref = $2`,
  };
}
