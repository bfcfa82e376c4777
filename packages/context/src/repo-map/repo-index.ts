import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import {
  classifyPath,
  contentSkipReason,
  MAX_MAP_FILE_BYTES,
  type SkipReason,
} from "./file-filter.js";
import { mapFileStamp, readMapFile } from "./map-file-read.js";
import type { MapLanguage } from "./languages.js";
import { type ParseJob, parseHere, type TagParser } from "./parse-jobs.js";
import { type FileStamp, TagCache } from "./tag-cache.js";
import type { FileTags } from "./tags.js";

/** How a {@link RepoIndex} is set up. */
export interface RepoIndexOptions {
  /** The project folder; paths given to `update` are relative to it, with `/`. */
  readonly root: string;
  /** A JSON file in the data folder that keeps tags by content hash across sessions. */
  readonly cacheFile?: string;
  /** Longest stretch of work before yielding to the event loop (default 8 ms). */
  readonly sliceMs?: number;
  /** What parses new files (default: this thread, in slices); the worker spreads them over threads. */
  readonly parse?: TagParser;
}

/** What one `update` did. */
export interface IndexUpdate {
  /** Files now in the index (mapped languages, not skipped). */
  readonly files: number;
  /** Files parsed now; the rest were reused from memory or the cache. */
  readonly parsed: number;
  readonly reused: number;
  readonly skipped: Readonly<Record<SkipReason, number>>;
  /** Grammars that failed to load and a cache that could not be written. */
  readonly problems: readonly string[];
}

/** Files handed to the parser at a time (its results are kept before the next chunk). */
export const PARSE_CHUNK = 64;

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A file whose tags are not known (its text is read again when its chunk is parsed). */
interface Pending {
  readonly path: string;
  readonly language: MapLanguage;
}

/** A file read for parsing: its path and the stamp its tags are kept under. */
interface Stamped {
  readonly path: string;
  readonly stamp: FileStamp;
}

/** A file read for parsing: its text, and the stamp its tags are kept under. */
interface ReadJob {
  readonly path: string;
  readonly language: MapLanguage;
  readonly text: string;
  readonly stamp: FileStamp;
}

/**
 * The tags of a project's files, kept up to date incrementally: a file whose size and
 * mtime match what was tagged is not read again, and one whose content hash is known is
 * not parsed again. Files are looked at first (in slices that yield to the event loop), then
 * the unknown ones are parsed together (by `options.parse`).
 */
export class RepoIndex {
  private readonly cache: TagCache;
  private readonly current = new Map<string, FileTags>();
  private loadedCache = false;
  private dirty = false;
  /** Paths tagged by the running or last update (an aborted one saves its progress). */
  private seen = new Set<string>();
  private readonly kinds = new Map<string, MapLanguage | "language" | "generated">();

  constructor(private readonly options: RepoIndexOptions) {
    this.cache = new TagCache(options.cacheFile);
  }

  /** The tags of every indexed file, by project-relative path. */
  get files(): ReadonlyMap<string, FileTags> {
    return this.current;
  }

  /**
   * Brings the index to `paths` (project-relative): drops files no longer listed, tags new
   * and changed ones (the cache file is written by {@link save}, after the map is ready).
   * Unreadable files, and files whose grammar does not load, are left out. Rejects only
   * with the signal's reason when aborted.
   */
  async update(paths: readonly string[], signal?: AbortSignal): Promise<IndexUpdate> {
    if (!this.loadedCache) {
      this.cache.load();
      this.loadedCache = true;
    }
    const skipped: Record<SkipReason, number> = { language: 0, generated: 0, huge: 0, binary: 0 };
    const known = new Map<string, FileTags>();
    const pending: Pending[] = [];
    const sorted = [...new Set(paths)].sort();
    let sliceStart = performance.now();
    this.seen = new Set();
    for (const path of sorted) {
      if (performance.now() - sliceStart > (this.options.sliceMs ?? 8)) {
        await yieldNow();
        signal?.throwIfAborted();
        sliceStart = performance.now();
      }
      const language = this.classify(path);
      if (language === "language" || language === "generated") {
        skipped[language]++;
        continue;
      }
      const outcome = this.look(path, language);
      if (typeof outcome === "string") skipped[outcome]++;
      else if (outcome && "language" in outcome) pending.push(outcome);
      else if (outcome) {
        known.set(path, outcome);
        this.seen.add(path);
      }
    }
    const parse = this.options.parse ?? ((jobs, s) => parseHere(jobs, s, this.options.sliceMs));
    const problems: string[] = [];
    let parsed = 0;
    // In chunks, each kept as it is parsed: an aborted update still saves what it tagged.
    for (let from = 0; from < pending.length; from += PARSE_CHUNK) {
      signal?.throwIfAborted();
      const batch = pending.slice(from, from + PARSE_CHUNK);
      const { jobs, read } = this.readLate(batch, skipped);
      const result = await parse(jobs, signal);
      for (const p of result.problems) if (!problems.includes(p)) problems.push(p);
      batch.forEach((_, i) => {
        const job = read.get(i);
        const tags = result.tags[i];
        if (!job || !tags) return;
        this.cache.entries.set(job.stamp.hash, tags);
        this.cache.stamps.set(job.path, job.stamp);
        known.set(job.path, tags);
        this.seen.add(job.path);
        this.dirty = true;
        parsed++;
      });
    }
    if (known.size !== this.current.size) this.dirty = true;
    this.current.clear();
    for (const path of sorted) {
      const tags = known.get(path);
      if (tags) this.current.set(path, tags);
    }
    return { files: known.size, parsed, reused: known.size - parsed, skipped, problems };
  }

  /**
   * Writes the cache file when the last updates changed anything, also after an aborted
   * update (what it tagged is kept). Returns a problem message when it cannot be written,
   * else null. Never throws.
   */
  save(): string | null {
    if (!this.dirty) return null;
    this.dirty = false;
    return this.cache.save(new Set([...this.current.keys(), ...this.seen]));
  }

  private realRoot: string | undefined;

  /** A listed path under the root's real path (a file is read only where it really is). */
  private fullPath(path: string): string {
    if (this.realRoot === undefined) {
      try {
        this.realRoot = realpathSync.native(this.options.root);
      } catch {
        this.realRoot = this.options.root;
      }
    }
    return join(this.realRoot, path);
  }

  private classify(path: string): MapLanguage | "language" | "generated" {
    let kind = this.kinds.get(path);
    if (kind === undefined) {
      kind = classifyPath(path);
      this.kinds.set(path, kind);
    }
    return kind;
  }

  /** Tags known for the file (by stamp or content hash), a file to parse, a skip reason, or null (unreadable). */
  private look(path: string, language: MapLanguage): FileTags | Pending | SkipReason | null {
    const info = mapFileStamp(this.fullPath(path));
    if (!info) return null;
    const known = this.cache.stamps.get(path);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) {
      const tags = this.cache.entries.get(known.hash);
      if (tags) return tags;
    }
    // With nothing cached no content hash can match: the file is read once, when parsed.
    if (this.cache.entries.size === 0) return { path, language };
    const file = this.stamped(path);
    if (!file || typeof file === "string") return file;
    const cached = this.cache.entries.get(file.stamp.hash);
    if (!cached) return { path, language };
    this.cache.stamps.set(path, file.stamp);
    this.dirty = true;
    return cached;
  }

  /**
   * Parse jobs for `batch` whose texts are read when the parser comes to them (once each),
   * so a text lives only while its file is parsed; `read` collects what was read, by index,
   * and skipped files are counted into `skipped`.
   */
  private readLate(
    batch: readonly Pending[],
    skipped: Record<SkipReason, number>,
  ): { jobs: ParseJob[]; read: Map<number, Stamped | null> } {
    const read = new Map<number, Stamped | null>();
    const jobs = batch.map((p, i) => ({
      language: p.language,
      // Only the stamp is kept: the text lives while its file is parsed. A second call (its
      // parser thread failed) reads the file again.
      text: () => {
        const job = this.read(p);
        if (typeof job === "string" && !read.has(i)) skipped[job]++;
        if (job === null || typeof job === "string") {
          read.set(i, null);
          return null;
        }
        read.set(i, { path: job.path, stamp: job.stamp });
        return job.text;
      },
    }));
    return { jobs, read };
  }

  /** A pending file's text and stamp, read now; why it is skipped, or null when unreadable. */
  private read(pending: Pending): ReadJob | SkipReason | null {
    const file = this.stamped(pending.path);
    if (!file || typeof file === "string") return file;
    const text = file.bytes.toString("utf8");
    return { path: pending.path, language: pending.language, text, stamp: file.stamp };
  }

  /** A file's bytes and stamp (size, mtime, content hash), a skip reason, or null (unreadable). */
  private stamped(path: string): { bytes: Buffer; stamp: FileStamp } | SkipReason | null {
    const read = readMapFile(this.fullPath(path), MAX_MAP_FILE_BYTES);
    if (!read) return null;
    const { bytes, ...info } = read;
    const skip = contentSkipReason(bytes);
    if (skip) return skip;
    const hash = createHash("sha1").update(bytes).digest("hex");
    return { bytes, stamp: { size: info.size, mtimeMs: info.mtimeMs, hash } };
  }
}
