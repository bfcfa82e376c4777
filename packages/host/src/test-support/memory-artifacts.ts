import type { ArtifactPutOptions, ArtifactRef, ArtifactSink } from "@z-engine/protocol";

/** An in-memory {@link ArtifactSink} for tests. */
export class MemoryArtifacts implements ArtifactSink {
  readonly stored = new Map<string, Uint8Array>();

  async put(
    name: string,
    data: string | Uint8Array,
    options?: ArtifactPutOptions,
  ): Promise<ArtifactRef> {
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
    const unique = `${this.stored.size + 1}-${name}`;
    const ref = `artifact:${unique}`;
    this.stored.set(ref, bytes);
    const mediaType = options?.mediaType ?? "text/plain";
    return { ref, name: unique, bytes: bytes.length, mediaType, truncated: false };
  }

  async read(ref: string): Promise<Uint8Array | undefined> {
    return this.stored.get(ref);
  }

  text(ref: string): string {
    return new TextDecoder().decode(this.stored.get(ref));
  }
}

/** A sink whose every write fails, to test that output is never lost silently. */
export class FailingArtifacts implements ArtifactSink {
  async put(): Promise<ArtifactRef> {
    throw new Error("disk full");
  }

  async read(): Promise<Uint8Array | undefined> {
    return undefined;
  }
}
