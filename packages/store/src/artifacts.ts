import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { PRIVATE_DIR, PRIVATE_FILE } from "./private.js";
import { join } from "node:path";
import type { ArtifactPutOptions, ArtifactRef, ArtifactSink } from "@z-engine/protocol";
import { errnoCode, StoreError } from "./errors.js";

/** The default limit of one artifact: 16 MiB. */
export const DEFAULT_ARTIFACT_MAX_BYTES = 16 * 1024 * 1024;

const REF_PREFIX = "artifact:";
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,160}$/;

/** A file name made from any name: safe characters only, at most 80 of them. */
function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 80);
  return cleaned === "" ? "artifact" : cleaned;
}

/** Cuts text to at most `max` UTF-8 bytes without splitting a character. */
function cutBytes(data: string | Uint8Array, max: number): { bytes: Uint8Array; cut: boolean } {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  if (bytes.length <= max) return { bytes, cut: false };
  let end = max;
  // Back off UTF-8 continuation bytes (10xxxxxx) so a text artifact stays valid text.
  if (typeof data === "string") while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return { bytes: bytes.subarray(0, end), cut: true };
}

/**
 * Stores a session's long outputs, check logs and images as files in its `artifacts/`
 * folder. References are `artifact:<file name>`, stable for the life of the session folder.
 */
export class FileArtifactSink implements ArtifactSink {
  constructor(
    /** The artifacts folder (created on the first put). */
    readonly dir: string,
    /** Data longer than this is cut, and its reference says `truncated`. */
    readonly maxBytes: number = DEFAULT_ARTIFACT_MAX_BYTES,
  ) {}

  /**
   * Stores `data` under a unique file name made from `name`. Rejects with `StoreError`
   * (`io`) only when the file cannot be written.
   */
  async put(
    name: string,
    data: string | Uint8Array,
    options?: ArtifactPutOptions,
  ): Promise<ArtifactRef> {
    const mediaType =
      options?.mediaType ?? (typeof data === "string" ? "text/plain" : "application/octet-stream");
    const { bytes, cut } = cutBytes(data, this.maxBytes);
    const base = safeName(name);
    try {
      await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR });
      for (;;) {
        const file = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}-${base}`;
        try {
          await writeFile(join(this.dir, file), bytes, { flag: "wx", mode: PRIVATE_FILE });
        } catch (error) {
          if (errnoCode(error) === "EEXIST") continue;
          throw error;
        }
        return {
          ref: `${REF_PREFIX}${file}`,
          name,
          bytes: bytes.length,
          mediaType,
          truncated: cut,
        };
      }
    } catch (error) {
      throw new StoreError("io", `cannot store artifact ${name}`, { cause: error });
    }
  }

  /**
   * The stored bytes, or `undefined` for a reference that is malformed, names anything
   * outside this folder, or does not exist. Rejects with `StoreError` (`io`) on a read error.
   */
  async read(ref: string): Promise<Uint8Array | undefined> {
    if (!ref.startsWith(REF_PREFIX)) return undefined;
    const file = ref.slice(REF_PREFIX.length);
    if (!SAFE_NAME.test(file)) return undefined;
    try {
      return await readFile(join(this.dir, file));
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" || code === "EISDIR") return undefined;
      throw new StoreError("io", `cannot read artifact ${ref}`, { cause: error });
    }
  }
}
