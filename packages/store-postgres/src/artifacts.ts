import { randomUUID } from "node:crypto";
import type { ArtifactPutOptions, ArtifactRef, ArtifactSink } from "@z-engine/protocol";
import { type Database, query } from "./database.js";

const REF_PREFIX = "artifact:";

/** At most `max` bytes of `data`, text cut at a character boundary. */
function cut(data: string | Uint8Array, max: number): { bytes: Uint8Array; truncated: boolean } {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  if (bytes.length <= max) return { bytes, truncated: false };
  let end = max;
  if (typeof data === "string") while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { bytes: bytes.subarray(0, end), truncated: true };
}

/**
 * A session's long outputs, check logs and images as rows of `zeng_artifacts` (bytea; gone
 * with the session). References are `artifact:<uuid>`: the name is a column, never part of
 * a path or a query.
 */
export class PostgresArtifactSink implements ArtifactSink {
  constructor(
    private readonly db: Database,
    private readonly sessionId: string,
  ) {}

  /**
   * Stores `data` (cut at the store's `artifactMaxBytes`, the reference then says
   * `truncated`). Rejects with `StoreError` (`io`) when the row cannot be written.
   */
  async put(
    name: string,
    data: string | Uint8Array,
    options?: ArtifactPutOptions,
  ): Promise<ArtifactRef> {
    const mediaType =
      options?.mediaType ?? (typeof data === "string" ? "text/plain" : "application/octet-stream");
    const { bytes, truncated } = cut(data, this.db.artifactMaxBytes);
    const ref = `${REF_PREFIX}${randomUUID()}`;
    const values = [this.sessionId, ref, name, mediaType, truncated, Buffer.from(bytes)];
    await query(this.db, this.db.sql.putArtifact, values, "io", `cannot store artifact ${name}`);
    return { ref, name, bytes: bytes.length, mediaType, truncated };
  }

  /** The stored bytes, or `undefined` for an unknown reference. Rejects with `StoreError` (`io`). */
  async read(ref: string): Promise<Uint8Array | undefined> {
    if (!ref.startsWith(REF_PREFIX)) return undefined;
    const what = `cannot read artifact ${ref}`;
    const { rows } = await query<{ data: Buffer }>(
      this.db,
      this.db.sql.readArtifact,
      [this.sessionId, ref],
      "io",
      what,
    );
    return rows[0] === undefined ? undefined : new Uint8Array(rows[0].data);
  }
}
