import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { StoreError } from "@z-engine/store";
import { createPostgresStore, type PostgresStoreOptions } from "../index.js";

/** The test server's URL (null when Postgres cannot be had here) and why it is missing. */
export const postgresUrl = (inject as (key: string) => unknown)("postgresUrl") as string | null;
export const postgresSkip = (inject as (key: string) => unknown)("postgresSkip") as string;

if (postgresUrl === null) console.warn(`store-postgres tests skipped: ${postgresSkip}`);

/** A schema name no other test uses. */
export const freshSchema = () => `t_${randomBytes(6).toString("hex")}`;

/** A store in a schema of its own, and a way to drop it. */
export async function freshStore(options: Partial<PostgresStoreOptions> = {}) {
  const schema = options.schema ?? freshSchema();
  const store = await createPostgresStore({
    connectionString: postgresUrl ?? "",
    schema,
    max: 4,
    ...options,
  });
  return { store, schema, drop: () => dropSchema(schema) };
}

/** Drops a test schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl ?? "" });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** What a promise settles as: "resolved", a `StoreError`'s code, or the other error's text. */
export const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (e: unknown) => (e instanceof StoreError ? e.code : String(e)),
  );
