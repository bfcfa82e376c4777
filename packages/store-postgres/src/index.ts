/**
 * @z-engine/store-postgres: a `SessionStore` on Postgres (`pg`) with the file store's
 * guarantees. Everything exported here is public API; everything else is internal.
 */

/**
 * `createPostgresStore(options)`: connects, applies the migrations and resolves with the
 * store. Its methods reject with `StoreError` as `SessionStore` says (`notFound`, `locked`
 * while another writer's lease is live, `invalidSessionId`, `io` when the database fails);
 * damaged rows are reported by `open`, never thrown.
 */
export { createPostgresStore, PostgresSessionStore } from "./postgres-store.js";
export type {
  PostgresOpenedSession,
  PostgresOpenReport,
  PostgresStoreOptions,
} from "./postgres-store.js";
/**
 * The handle `open` and `create` return (see `Session`): appends resolve once committed,
 * fenced by the session's lease; after a lost lease every append rejects with `locked`.
 */
export { PostgresSession } from "./postgres-session.js";
/** Artifacts as rows (`artifact:<uuid>` references); `read` of an unknown one is `undefined`. */
export { PostgresArtifactSink } from "./artifacts.js";
/**
 * Applies the migrations a schema lacks (what `createPostgresStore` runs first) and
 * resolves with the version in place. Rejects with `StoreError` (`io`).
 */
export { migrate, SCHEMA_VERSION } from "./migrations.js";
