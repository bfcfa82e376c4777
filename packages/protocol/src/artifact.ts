import { z } from "zod";
import { lazily } from "./lazy.js";

/** A stable reference to stored bytes (a long tool output, a check log, an image). */
export const ArtifactRef = lazily(() =>
  z.object({
    /** Opaque and stable for the life of the session: `artifact:<name>`. */
    ref: z.string(),
    name: z.string(),
    /** Bytes stored (after any truncation). */
    bytes: z.number().int().nonnegative(),
    mediaType: z.string(),
    /** True when the data was longer than the sink's limit and only its start was kept. */
    truncated: z.boolean(),
  }),
);
export type ArtifactRef = z.infer<typeof ArtifactRef>;

export interface ArtifactPutOptions {
  /** Defaults to `text/plain` for strings and `application/octet-stream` for bytes. */
  readonly mediaType?: string;
}

/**
 * Where long outputs go. `@z-engine/store` implements it per session; tests may use an
 * in-memory one.
 *
 * `put` stores data under a name (made unique by the sink) and resolves to a stable
 * reference; data over the sink's size limit is cut and the reference says `truncated`.
 * It rejects only on an I/O failure. `read` resolves to the bytes, or `undefined` for an
 * unknown reference.
 */
export interface ArtifactSink {
  put(name: string, data: string | Uint8Array, options?: ArtifactPutOptions): Promise<ArtifactRef>;
  read(ref: string): Promise<Uint8Array | undefined>;
}
