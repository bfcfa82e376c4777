import type { TokenUsage, Usage } from "@z-engine/protocol";
import { builtinModel } from "./catalog/builtin.js";
import type { ModelInfoSource, Pricing } from "./catalog/model-info.js";

/** Per-model price overrides (the user's `[pricing]`), USD per million tokens; missing fields fall through. */
export type PricingOverrides = Readonly<Record<string, Partial<Pricing>>>;

/** Anything that can look a model up (a `ModelCatalog`). */
export interface ModelLookup {
  lookup(model: string): { cost?: Partial<Pricing>; source: ModelInfoSource } | undefined;
}

/** A model's prices and where they came from. */
export interface ResolvedPricing {
  pricing: Pricing;
  source: "override" | ModelInfoSource;
}

/**
 * The prices of `model`, field by field: the override, else the catalog (with models.json),
 * else the built-in table. A missing cache price falls back to the input price. Undefined
 * when nobody prices the model (its requests then cost 0).
 */
export function resolvePricing(
  model: string,
  sources: { overrides?: PricingOverrides | undefined; catalog?: ModelLookup | undefined } = {},
): ResolvedPricing | undefined {
  const override = sources.overrides?.[model];
  const known = sources.catalog ? sources.catalog.lookup(model) : builtinModel(model);
  const cost = known?.cost;
  if (!override && !cost) return undefined;
  const input = override?.input ?? cost?.input ?? 0;
  return {
    pricing: {
      input,
      output: override?.output ?? cost?.output ?? 0,
      cacheRead: override?.cacheRead ?? cost?.cacheRead ?? input,
      cacheWrite: override?.cacheWrite ?? cost?.cacheWrite ?? input,
    },
    source: override ? "override" : (known?.source ?? "builtin"),
  };
}

/** Token counts priced: each kind times its price per million. No pricing costs 0. */
export function priceUsage(tokens: TokenUsage, pricing: Pricing | undefined): Usage {
  const cost = pricing
    ? (tokens.input * pricing.input +
        tokens.output * pricing.output +
        tokens.cacheRead * pricing.cacheRead +
        tokens.cacheWrite * pricing.cacheWrite) /
      1_000_000
    : 0;
  return { ...tokens, costUsd: cost };
}

/** The `Usage` of one request to `model`, priced as {@link resolvePricing} says. */
export function priceRequest(
  model: string,
  tokens: TokenUsage,
  sources: { overrides?: PricingOverrides | undefined; catalog?: ModelLookup | undefined } = {},
): Usage {
  return priceUsage(tokens, resolvePricing(model, sources)?.pricing);
}
