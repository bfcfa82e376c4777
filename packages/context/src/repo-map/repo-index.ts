import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { classifyPath, contentSkipReason, type SkipReason } from "./file-filter.js";
import { type LoadedLanguage, loadLanguage, type MapLanguage } from "./languages.js";
import { TagCache } from "./tag-cache.js";
import { extractTags, type FileTags } from "./tags.js";

/** How a {@link RepoIndex} is set up. */
export interface RepoIndexOptions {
  /** The project folder; paths given to `update` are relative to it, with `/`. */
  readonly root: string;
  /** A JSON file in the data folder that keeps tags by content hash across sessions. */
  readonly cacheFile?: string;
  /** Longest stretch of work before yielding to the event loop (default 8 ms). */
  readonly sliceMs?: number;
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

const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The tags of a project's files, kept up to date incrementally: a file whose size and
 * mtime match what was tagged is not read again, and one whose content hash is known is
 * not parsed again. Work is cut into slices that yield to the event loop.
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
   * Unreadable files are left out. Rejects only with
   * the signal's reason when aborted.
   */
  async update(paths: readonly string[], signal?: AbortSignal): Promise<IndexUpdate> {
    if (!this.loadedCache) {
      this.cache.load();
      this.loadedCache = true;
    }
    const skipped: Record<SkipReason, number> = { language: 0, generated: 0, huge: 0, binary: 0 };
    const problems: string[] = [];
    const grammars = new Map<MapLanguage, LoadedLanguage | null>();
    const next = new Map<string, FileTags>();
    let parsed = 0;
    let reused = 0;
    let sliceStart = performance.now();
    this.seen = new Set();
    for (const path of [...new Set(paths)].sort()) {
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
      const outcome = await this.tagFile(path, language, grammars, problems);
      if (typeof outcome === "string") {
        skipped[outcome]++;
        continue;
      }
      if (!outcome) continue;
      this.seen.add(path);
      next.set(path, outcome.tags);
      if (outcome.parsed) parsed++;
      else reused++;
    }
    if (next.size !== this.current.size) this.dirty = true;
    this.current.clear();
    for (const [path, tags] of next) this.current.set(path, tags);
    return { files: next.size, parsed, reused, skipped, problems };
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

  private classify(path: string): MapLanguage | "language" | "generated" {
    let kind = this.kinds.get(path);
    if (kind === undefined) {
      kind = classifyPath(path);
      this.kinds.set(path, kind);
    }
    return kind;
  }

  private async tagFile(
    path: string,
    language: MapLanguage,
    grammars: Map<MapLanguage, LoadedLanguage | null>,
    problems: string[],
  ): Promise<{ tags: FileTags; parsed: boolean } | SkipReason | null> {
    const full = join(this.options.root, path);
    let info: { size: number; mtimeMs: number };
    try {
      info = statSync(full);
    } catch {
      return null;
    }
    const known = this.cache.stamps.get(path);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) {
      const tags = this.cache.entries.get(known.hash);
      if (tags) return { tags, parsed: false };
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(full);
    } catch {
      return null;
    }
    const skip = contentSkipReason(bytes);
    if (skip) return skip;
    const hash = createHash("sha1").update(bytes).digest("hex");
    const stamp = { size: info.size, mtimeMs: info.mtimeMs, hash };
    const cached = this.cache.entries.get(hash);
    this.dirty = true;
    if (cached) {
      this.cache.stamps.set(path, stamp);
      return { tags: cached, parsed: false };
    }
    const grammar = await this.grammar(language, grammars, problems);
    if (!grammar) return null;
    const tags = extractTags(bytes.toString("utf8"), grammar);
    this.cache.entries.set(hash, tags);
    this.cache.stamps.set(path, stamp);
    return { tags, parsed: true };
  }

  private async grammar(
    language: MapLanguage,
    grammars: Map<MapLanguage, LoadedLanguage | null>,
    problems: string[],
  ): Promise<LoadedLanguage | null> {
    if (grammars.has(language)) return grammars.get(language) ?? null;
    const loaded = await loadLanguage(language).catch((error: Error) => {
      problems.push(`${error.message}: ${String((error.cause as Error | undefined)?.message)}`);
      return null;
    });
    grammars.set(language, loaded);
    return loaded;
  }
}
