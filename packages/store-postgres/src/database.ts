import type { Pool, QueryResult, QueryResultRow } from "pg";
import { StoreError, type StoreErrorCode } from "@z-engine/store";
import type { Statements } from "./statements.js";

/** What every part of the store shares: the pool, the statements and the lease settings. */
export interface Database {
  readonly pool: Pool;
  readonly sql: Statements;
  /** How long a lease lasts without renewal, in ms. */
  readonly leaseMs: number;
  /** Who holds the leases this store takes (shown to a second opener). */
  readonly owner: string;
  readonly artifactMaxBytes: number;
}

/** Runs one statement; a failure becomes `StoreError` with `code` and the driver's error as cause. */
export async function query<R extends QueryResultRow>(
  db: Database,
  text: string,
  values: readonly unknown[],
  code: StoreErrorCode,
  what: string,
): Promise<QueryResult<R>> {
  try {
    return await db.pool.query<R>(text, values as unknown[]);
  } catch (error) {
    throw new StoreError(code, `${what}: ${(error as Error).message}`, { cause: error });
  }
}
