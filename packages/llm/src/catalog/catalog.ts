import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import { builtinModel } from "./builtin.js";
import { download } from "./download.js";
import {
  fromModelsDev,
  type ModelInfo,
  ModelsDevModel,
  mergeInfo,
  parseModelsDev,
} from "./model-info.js";

/** The public models.dev catalog. */
export const MODELS_DEV_URL = "https://models.dev/api.json";
/** The cache file's name in the data folder. */
export const CATALOG_CACHE_FILE = "models-catalog.json";
const DAY_MS = 24 * 60 * 60 * 1000;

/** Options of {@link ModelCatalog.open}. */
export interface CatalogOptions {
  /** Folder for the cache file; without it nothing is cached (or read from a cache). */
  dataDir?: string;
  /** The catalog URL, or `"off"` to never download (tests and the demo). Default models.dev. */
  source?: string;
  /** The user's corrections: `{ "<model>": { name?, limit?: {context?, output?}, cost?: {...} } }`. */
  modelsJsonPath?: string;
  /** A cache older than this is refreshed in the background (default one day). */
  maxAgeMs?: number;
  /** Injected clock (default `Date.now`). */
  now?: () => number;
  /** Download timeout (default 30 s). */
  timeoutMs?: number;
}

const CacheFile = lazily(() =>
  z.object({
    v: z.literal(2),
    fetchedAt: z.number(),
    source: z.string(),
    data: z.unknown(),
  }),
);

/**
 * Context windows, output limits and prices per model: the cached models.dev catalog,
 * corrected by the user's models.json, with a built-in table for models neither knows.
 * Lookups are synchronous and never wait for the network. A stale or missing cache is
 * refreshed in the background (an unref'd socket and timer, aborted by `close()`), so the
 * catalog never blocks a request nor keeps the process alive. Damaged files are reported in
 * `problems` and otherwise ignored.
 */
export class ModelCatalog {
  /** Files that could not be read and downloads that failed, as messages. */
  readonly problems: string[] = [];
  private models = new Map<string, ModelInfo>();
  private user = new Map<string, ModelInfo>();
  private fetched: number | undefined;
  private running: Promise<boolean> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private readonly now: () => number;

  private constructor(private readonly options: CatalogOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Reads the cache and models.json, and starts a background refresh when due. Never rejects. */
  static async open(options: CatalogOptions = {}): Promise<ModelCatalog> {
    const catalog = new ModelCatalog(options);
    await Promise.all([catalog.readCache(), catalog.readUserModels()]);
    catalog.schedule();
    return catalog;
  }

  /** When the cached catalog was downloaded (ms since epoch), if there is one. */
  get fetchedAt(): number | undefined {
    return this.fetched;
  }

  /**
   * What is known about `model`: the catalog's entry (exact id, then the part after a
   * `provider/` prefix), else the built-in table's, with models.json's corrections on top.
   */
  lookup(model: string): ModelInfo | undefined {
    const bare = model.slice(model.lastIndexOf("/") + 1);
    const base = this.models.get(model) ?? this.models.get(bare) ?? builtinModel(model);
    const user = this.user.get(model) ?? this.user.get(bare);
    if (!user) return base ? { ...base, id: model } : undefined;
    return { ...mergeInfo(base, user), id: model };
  }

  /**
   * Downloads the catalog now and replaces the cache (written atomically). Resolves true when
   * it was updated, false when the source is off or the download failed (see `problems`).
   * Concurrent calls share one download. Never rejects.
   */
  refresh(): Promise<boolean> {
    this.running ??= this.download().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves when no refresh is running (for tests and shutdown). */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Stops background refreshes and aborts one in flight. */
  close(): void {
    clearTimeout(this.timer);
    this.abort.abort();
  }

  private get source(): string | undefined {
    const source = this.options.source ?? MODELS_DEV_URL;
    return source === "off" || source === "" ? undefined : source;
  }

  private schedule(): void {
    if (!this.source || this.abort.signal.aborted) return;
    const maxAge = this.options.maxAgeMs ?? DAY_MS;
    const age = this.fetched === undefined ? Number.POSITIVE_INFINITY : this.now() - this.fetched;
    if (age >= maxAge) {
      void this.refresh().then((ok) => {
        if (!ok) this.later(Math.min(maxAge, 60 * 60 * 1000));
      });
    } else this.later(maxAge - age);
  }

  private later(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.schedule(), Math.min(ms, 2 ** 31 - 1));
    this.timer.unref();
  }

  private async download(): Promise<boolean> {
    const source = this.source;
    if (!source || this.abort.signal.aborted) return false;
    try {
      const text = await download(source, this.abort.signal, this.options.timeoutMs);
      const data: unknown = JSON.parse(text);
      const parsed = parseModelsDev(data);
      if (parsed.models.size === 0) throw new Error("no models in the document");
      this.models = parsed.models;
      this.fetched = this.now();
      await this.writeCache(source, data);
      if (!this.abort.signal.aborted) this.later(this.options.maxAgeMs ?? DAY_MS);
      return true;
    } catch (error) {
      if (!this.abort.signal.aborted)
        this.problems.push(`catalog refresh failed: ${(error as Error).message}`);
      return false;
    }
  }

  private cachePath(): string | undefined {
    return this.options.dataDir === undefined
      ? undefined
      : join(this.options.dataDir, CATALOG_CACHE_FILE);
  }

  private async writeCache(source: string, data: unknown): Promise<void> {
    const path = this.cachePath();
    if (!path || this.fetched === undefined) return;
    await mkdir(this.options.dataDir!, { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    const text = JSON.stringify({ v: 2, fetchedAt: this.fetched, source, data });
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, path);
  }

  private async readCache(): Promise<void> {
    const path = this.cachePath();
    const text = path ? await readOptional(path, this.problems) : undefined;
    if (text === undefined) return;
    try {
      const file = CacheFile.parse(JSON.parse(text));
      this.models = parseModelsDev(file.data).models;
      this.fetched = file.fetchedAt;
    } catch {
      this.problems.push(`${path} is damaged; it will be downloaded again`);
    }
  }

  private async readUserModels(): Promise<void> {
    const path = this.options.modelsJsonPath;
    const text = path ? await readOptional(path, this.problems) : undefined;
    if (text === undefined) return;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      this.problems.push(`${path} is not JSON; it is ignored`);
      return;
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
      this.problems.push(`${path} must be an object of models by id; it is ignored`);
      return;
    }
    for (const [id, raw] of Object.entries(doc)) {
      const entry = ModelsDevModel.safeParse(raw);
      if (entry.success) this.user.set(id, fromModelsDev(id, entry.data, "models.json"));
      else
        this.problems.push(
          `${path}: model ${JSON.stringify(id)} is skipped: ${entry.error.issues[0]?.message}`,
        );
    }
  }
}

async function readOptional(path: string, problems: string[]): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      problems.push(`cannot read ${path}: ${(error as Error).message}`);
    return undefined;
  }
}
