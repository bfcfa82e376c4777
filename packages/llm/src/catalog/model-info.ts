import { lazily } from "@z-engine/protocol";
import { z } from "zod";

/** Prices in US dollars per million tokens, each token kind priced separately. */
export interface Pricing {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Where a model's facts came from. */
export type ModelInfoSource = "catalog" | "builtin" | "models.json";

/** What the catalog knows about one model. Every fact is optional: catalogs are incomplete. */
export interface ModelInfo {
  id: string;
  name?: string;
  /** Context window in tokens. */
  contextWindow?: number;
  /** Largest output in tokens. */
  outputLimit?: number;
  /** Whether it reads images (models.dev `modalities.input` has `image`); absent: unknown. */
  vision?: boolean;
  cost?: Partial<Pricing>;
  source: ModelInfoSource;
}

const count = () => z.number().finite().nonnegative();

/** One model in the models.dev format (unknown fields are ignored). */
export const ModelsDevModel = lazily(() =>
  z.object({
    id: z.string().optional(),
    name: z.string().optional(),
    limit: z.object({ context: count().optional(), output: count().optional() }).optional(),
    modalities: z.object({ input: z.array(z.string()).optional() }).optional(),
    cost: z
      .object({
        input: count().optional(),
        output: count().optional(),
        cache_read: count().optional(),
        cache_write: count().optional(),
      })
      .optional(),
  }),
);
export type ModelsDevModel = z.infer<typeof ModelsDevModel>;

/** A provider in the models.dev format. */
export const ModelsDevProvider = lazily(() =>
  z.object({ models: z.record(z.string(), z.unknown()) }),
);

/** A models.dev entry as a `ModelInfo` (fields that are absent stay absent). */
export function fromModelsDev(
  id: string,
  entry: ModelsDevModel,
  source: ModelInfoSource,
): ModelInfo {
  const cost: Partial<Pricing> = {};
  if (entry.cost?.input !== undefined) cost.input = entry.cost.input;
  if (entry.cost?.output !== undefined) cost.output = entry.cost.output;
  if (entry.cost?.cache_read !== undefined) cost.cacheRead = entry.cost.cache_read;
  if (entry.cost?.cache_write !== undefined) cost.cacheWrite = entry.cost.cache_write;
  return {
    id,
    source,
    ...(entry.name !== undefined ? { name: entry.name } : {}),
    ...(entry.limit?.context !== undefined ? { contextWindow: entry.limit.context } : {}),
    ...(entry.limit?.output !== undefined ? { outputLimit: entry.limit.output } : {}),
    ...(entry.modalities?.input !== undefined
      ? { vision: entry.modalities.input.includes("image") }
      : {}),
    ...(Object.keys(cost).length > 0 ? { cost } : {}),
  };
}

/** `over`'s facts on top of `base`'s (cost merged field by field). */
export function mergeInfo(base: ModelInfo | undefined, over: ModelInfo): ModelInfo {
  if (!base) return over;
  return {
    ...base,
    ...over,
    id: base.id,
    ...(base.cost || over.cost ? { cost: { ...base.cost, ...over.cost } } : {}),
  };
}

/**
 * Parses a models.dev document (`{ <provider>: { models: { <id>: {...} } } }`) into models by
 * id. Entries that do not fit are skipped and counted. The first provider to list an id wins,
 * with `anthropic`, `openai` and `google` read first.
 */
export function parseModelsDev(doc: unknown): {
  models: Map<string, ModelInfo>;
  /** The ids each provider lists, in the document's order. */
  providers: Map<string, string[]>;
  skipped: number;
} {
  const models = new Map<string, ModelInfo>();
  const providers = new Map<string, string[]>();
  let skipped = 0;
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    return { models, providers, skipped: 1 };
  const first = ["anthropic", "openai", "google"];
  const names = Object.keys(doc).sort((a, b) => rank(first, a) - rank(first, b));
  for (const name of names) {
    const provider = ModelsDevProvider.safeParse((doc as Record<string, unknown>)[name]);
    if (!provider.success) {
      skipped++;
      continue;
    }
    const ids: string[] = [];
    for (const [id, raw] of Object.entries(provider.data.models)) {
      const entry = ModelsDevModel.safeParse(raw);
      if (!entry.success) {
        skipped++;
        continue;
      }
      ids.push(id);
      if (!models.has(id)) models.set(id, fromModelsDev(id, entry.data, "catalog"));
    }
    providers.set(name, ids);
  }
  return { models, providers, skipped };
}

function rank(first: string[], name: string): number {
  const i = first.indexOf(name);
  return i < 0 ? first.length : i;
}
