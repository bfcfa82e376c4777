import type { EffectiveSettings } from "@z-engine/config";
import {
  builtinModelIds,
  createModelClient,
  detectProvider,
  loadAnthropicSdk,
  loadOpenAiSdk,
  type ModelCatalog as LlmCatalog,
  priceRequest,
  type PricingOverrides,
} from "@z-engine/llm";
import type { TokenUsage, Usage } from "@z-engine/protocol";
import type { ClientFactory } from "./engine-options.js";
import type { ModelCatalog, ModelInfo } from "./model-catalog.js";

/** Sizes used when neither the catalog nor the built-in table knows a model. */
export const DEFAULT_MODEL_INFO: ModelInfo = {
  contextWindow: 200_000,
  maxOutputTokens: 32_000,
  vision: true,
};

/** The settings' `[pricing]` table in llm's shape. */
export function pricingOverrides(settings: EffectiveSettings): PricingOverrides {
  const out: Record<
    string,
    { input?: number; output?: number; cacheRead?: number; cacheWrite?: number }
  > = {};
  for (const [model, p] of Object.entries(settings.pricing)) {
    out[model] = {
      ...(p.input !== undefined ? { input: p.input } : {}),
      ...(p.output !== undefined ? { output: p.output } : {}),
      ...(p.cache_read !== undefined ? { cacheRead: p.cache_read } : {}),
      ...(p.cache_write !== undefined ? { cacheWrite: p.cache_write } : {}),
    };
  }
  return out;
}

/**
 * The engine's view of llm's catalog: sizes (defaults for unknown models) and prices from
 * the settings' overrides, else the catalog, else llm's built-in table.
 */
export function catalogView(
  catalog: LlmCatalog | undefined,
  overrides: () => PricingOverrides,
): ModelCatalog {
  return {
    info(model: string): ModelInfo {
      const known = catalog?.lookup(model);
      return {
        contextWindow: known?.contextWindow ?? DEFAULT_MODEL_INFO.contextWindow,
        maxOutputTokens: known?.outputLimit ?? DEFAULT_MODEL_INFO.maxOutputTokens,
        vision: known?.vision ?? DEFAULT_MODEL_INFO.vision,
      };
    },
    price(model: string, usage: TokenUsage): Usage {
      return priceRequest(model, usage, {
        overrides: overrides(),
        ...(catalog ? { catalog } : {}),
      });
    },
    models: (provider) => catalog?.modelIds(provider) ?? builtinModelIds(provider),
  };
}

/**
 * The default client factory: `@z-engine/llm` configured from the session's settings
 * (provider kind, base URL, headers, fallbacks for the main model), keys from the
 * environment and auth.json in the data folder, unless `apiKey` is given. Never throws.
 */
export function llmClientFactory(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
  apiKey?: string,
): ClientFactory {
  return ({ role, model, settings }) => {
    // The SDK's import (~110 ms) starts with the client, which the session makes when it
    // opens, so the first request does not wait for it (issue 18).
    const detected = detectProvider({
      kind: settings.provider.kind,
      baseUrl: settings.provider.base_url,
    });
    if (detected.ok)
      void (detected.endpoint.kind === "anthropic" ? loadAnthropicSdk() : loadOpenAiSdk()).catch(
        () => {},
      );
    return createModelClient(
      {
        model,
        ...(apiKey ? { apiKey } : {}),
        ...(settings.provider.kind ? { kind: settings.provider.kind } : {}),
        ...(settings.provider.base_url ? { baseUrl: settings.provider.base_url } : {}),
        ...(Object.keys(settings.provider.headers).length > 0
          ? { headers: settings.provider.headers }
          : {}),
        ...(role === "main" && settings.model.fallbacks.length > 0
          ? { fallbacks: settings.model.fallbacks }
          : {}),
      },
      { env, dataDir },
    );
  };
}
