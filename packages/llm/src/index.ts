/**
 * @z-engine/llm: the model clients. Everything exported here is public API; everything else
 * is internal. Importing this module loads no provider SDK: each SDK is imported the first
 * time a client of its kind streams.
 */

// The client the engine uses
export type { LlmEnvironment, LlmOptions } from "./create-client.js";
export { createModelClient, createWireClient } from "./create-client.js";

// Wire-format clients (one attempt per call)
export type { ClientConfig } from "./client-config.js";
export { AnthropicClient, loadAnthropicSdk } from "./anthropic/client.js";
export { THINKING_BUDGET, toAnthropicParams, usesAdaptiveThinking } from "./anthropic/request.js";
export { OpenAiCompatibleClient, loadOpenAiSdk } from "./openai/client.js";
export type { OpenAiRequestOptions } from "./openai/request.js";
export { REASONING_EFFORT, toOpenAiParams } from "./openai/request.js";

// Provider detection and keys
export type { DetectResult, ProviderEndpoint, ProviderKind } from "./provider.js";
export { catalogProvider, DEFAULT_BASE_URLS, detectProvider, isAnthropicHost } from "./provider.js";
export type { Env, KeyLookup, ResolvedKey } from "./keys.js";
/** `AuthFile` is auth.json's schema, built on first use (a stand-in, as protocol's `lazily` makes). */
export {
  AUTH_FILE,
  AuthFile,
  providerKeyVariable,
  readAuthFile,
  resolveApiKey,
  saveApiKey,
} from "./keys.js";

// Retries and fallbacks
export type { RetryOptions, Sleep } from "./retry.js";
export { realSleep, retryDelayMs, withRetry } from "./retry.js";
export { isContentEvent } from "./relay.js";
export { FallbackClient } from "./fallback.js";

// Errors
export type { LlmErrorCode } from "./errors.js";
export { classifyError, isRetryable, LlmError, RETRYABLE_KINDS } from "./errors.js";

// Catalog and cost
export type { CatalogOptions } from "./catalog/catalog.js";
export { CATALOG_CACHE_FILE, MODELS_DEV_URL, ModelCatalog } from "./catalog/catalog.js";
export type { ModelInfo, ModelInfoSource, Pricing } from "./catalog/model-info.js";
export { parseModelsDev } from "./catalog/model-info.js";
export { builtinModel, builtinModelIds, latestBuiltinModel } from "./catalog/builtin.js";
export type { ModelLookup, PricingOverrides, ResolvedPricing } from "./cost.js";
export { priceRequest, priceUsage, resolvePricing } from "./cost.js";
