import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { FileTags } from "./tags.js";

/** What a file looked like when it was tagged: size, mtime and content hash. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
  readonly hash: string;
}

const CACHE_VERSION = 2;
/** Bumped when the queries or the extractor change, so old tags are not reused. */
export const TAGS_VERSION = 1;

interface CacheFile {
  readonly v: number;
  readonly tags: number;
  readonly entries: Record<string, FileTags>;
  readonly stamps: Record<string, FileStamp>;
}

/**
 * Tags by content hash, and the stamp each path had when it was tagged, loaded from and
 * saved to one JSON file in the data folder. A cache that is missing, damaged or of another
 * version starts empty; saving writes a temporary file and renames it.
 */
export class TagCache {
  readonly entries = new Map<string, FileTags>();
  readonly stamps = new Map<string, FileStamp>();

  constructor(private readonly file: string | undefined) {}

  /** Reads the cache file, if any. Never throws: a bad file is ignored (and replaced on save). */
  load(): void {
    if (!this.file) return;
    try {
      const data = JSON.parse(readFileSync(this.file, "utf8")) as CacheFile;
      if (data.v !== CACHE_VERSION || data.tags !== TAGS_VERSION) return;
      for (const [hash, tags] of Object.entries(data.entries)) {
        if (Array.isArray(tags?.defs) && typeof tags.refs === "object")
          this.entries.set(hash, tags);
      }
      for (const [path, stamp] of Object.entries(data.stamps)) {
        if (typeof stamp?.hash === "string" && this.entries.has(stamp.hash))
          this.stamps.set(path, stamp);
      }
    } catch {
      // A missing or damaged cache only costs a full parse.
    }
  }

  /**
   * Writes the entries still in use by `paths` (older ones are dropped). Returns an error
   * message when the file cannot be written, else null.
   */
  save(paths: Iterable<string>): string | null {
    if (!this.file) return null;
    const stamps: Record<string, FileStamp> = {};
    const entries: Record<string, FileTags> = {};
    for (const path of paths) {
      const stamp = this.stamps.get(path);
      const tags = stamp && this.entries.get(stamp.hash);
      if (!stamp || !tags) continue;
      stamps[path] = stamp;
      entries[stamp.hash] = tags;
    }
    const data: CacheFile = { v: CACHE_VERSION, tags: TAGS_VERSION, entries, stamps };
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      // The cache holds lines of the project's files: the user's alone (issue 38, item 24).
      mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
      writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
      renameSync(tmp, this.file);
      return null;
    } catch (error) {
      return `the repo map cache could not be written: ${(error as Error).message}`;
    }
  }
}
