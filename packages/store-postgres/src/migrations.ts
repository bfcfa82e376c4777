import type { Pool, PoolClient } from "pg";
import { StoreError } from "@z-engine/store";

/** A schema name as SQL: a quoted identifier. Throws `StoreError` (`io`) for an unsafe name. */
export function quoteSchema(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
    throw new StoreError(
      "io",
      `${JSON.stringify(schema)} is not a schema name (letters, digits, _)`,
    );
  return `"${schema}"`;
}

/**
 * The migrations, in order; each runs once per schema, in one transaction with the record
 * of it. A later version only adds (a new table, column or index), so an older build keeps
 * working on a newer schema of the same major layout.
 */
function migrations(s: string): readonly string[] {
  return [
    `CREATE TABLE ${s}.zeng_sessions (
       id text PRIMARY KEY,
       created_at timestamptz NOT NULL DEFAULT now(),
       updated_at bigint NOT NULL,
       next_seq bigint NOT NULL DEFAULT 0,
       log_bytes bigint NOT NULL DEFAULT 0,
       meta jsonb,
       meta_seq bigint NOT NULL DEFAULT -1,
       lease_token uuid,
       lease_owner text,
       lease_expires timestamptz
     );
     CREATE INDEX zeng_sessions_updated ON ${s}.zeng_sessions (updated_at DESC);
     CREATE TABLE ${s}.zeng_records (
       session_id text NOT NULL REFERENCES ${s}.zeng_sessions (id) ON DELETE CASCADE,
       agent_id text NOT NULL DEFAULT '',
       seq bigint NOT NULL,
       kind text NOT NULL,
       body text NOT NULL,
       PRIMARY KEY (session_id, seq)
     );
     CREATE INDEX zeng_records_logs ON ${s}.zeng_records (session_id, agent_id, seq);
     CREATE INDEX zeng_records_resume_points ON ${s}.zeng_records (session_id, seq)
       WHERE kind = 'resumePoint' AND agent_id = '';
     CREATE TABLE ${s}.zeng_artifacts (
       session_id text NOT NULL REFERENCES ${s}.zeng_sessions (id) ON DELETE CASCADE,
       ref text NOT NULL,
       name text NOT NULL,
       media_type text NOT NULL,
       truncated boolean NOT NULL,
       data bytea NOT NULL,
       PRIMARY KEY (session_id, ref)
     );`,
  ];
}

/** The schema version this build writes. */
export const SCHEMA_VERSION = 1;

/**
 * Applies the migrations `schema` lacks, under a transaction-scoped advisory lock so that
 * processes starting together apply each once. Resolves with the version now in place (a
 * newer one than this build's is left alone: later versions only add, so workers of two
 * builds can share a database during a rolling deploy). Rejects with `StoreError` (`io`)
 * when the database cannot be reached or migrated.
 */
export async function migrate(pool: Pool, schema: string): Promise<number> {
  const s = quoteSchema(schema);
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw new StoreError("io", "cannot connect to Postgres", { cause: error });
  }
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`zeng-migrations:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.zeng_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ v: number | null }>(
      `SELECT max(version) AS v FROM ${s}.zeng_migrations`,
    );
    const current = rows[0]?.v ?? 0;
    const all = migrations(s);
    for (let v = current + 1; v <= all.length; v++) {
      await client.query(all[v - 1] as string);
      await client.query(`INSERT INTO ${s}.zeng_migrations (version) VALUES ($1)`, [v]);
    }
    await client.query("COMMIT");
    return Math.max(current, all.length);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    if (error instanceof StoreError) throw error;
    throw new StoreError("io", `cannot migrate schema ${schema}`, { cause: error });
  } finally {
    client.release();
  }
}
