import type { ArtifactPutOptions, ArtifactRef, ArtifactSink } from "@z-engine/protocol";
import { DEFAULT_ARTIFACT_MAX_BYTES } from "./artifacts.js";

const REF_PREFIX = "artifact:";

/**
 * An `ArtifactSink` that keeps artifacts in memory for the life of the object (tests, and
 * stores with no place for large data). Data longer than `maxBytes` is cut, and its
 * reference says `truncated`. Never rejects.
 */
export class MemoryArtifactSink implements ArtifactSink {
  private readonly blobs = new Map<string, Uint8Array>();

  constructor(readonly maxBytes: number = DEFAULT_ARTIFACT_MAX_BYTES) {}

  async put(
    name: string,
    data: string | Uint8Array,
    options?: ArtifactPutOptions,
  ): Promise<ArtifactRef> {
    const mediaType =
      options?.mediaType ?? (typeof data === "string" ? "text/plain" : "application/octet-stream");
    const all = typeof data === "string" ? new TextEncoder().encode(data) : data.slice();
    const bytes = all.subarray(0, this.maxBytes);
    const ref = `${REF_PREFIX}${this.blobs.size + 1}-${name.replace(/[^A-Za-z0-9._-]+/g, "-")}`;
    this.blobs.set(ref, bytes);
    return { ref, name, bytes: bytes.length, mediaType, truncated: bytes.length < all.length };
  }

  /** The stored bytes (a copy), or `undefined` for an unknown reference. */
  async read(ref: string): Promise<Uint8Array | undefined> {
    return this.blobs.get(ref)?.slice();
  }
}
