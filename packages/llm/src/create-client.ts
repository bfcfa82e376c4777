import type { ModelClient, ModelEvent, ModelRequest, StreamOptions } from "@z-engine/protocol";
import { AnthropicClient } from "./anthropic/client.js";
import type { ClientConfig } from "./client-config.js";
import type { PricingOverrides } from "./cost.js";
import { FallbackClient } from "./fallback.js";
import { type Env, resolveApiKey } from "./keys.js";
import { OpenAiCompatibleClient } from "./openai/client.js";
import { detectProvider, type ProviderEndpoint, type ProviderKind } from "./provider.js";
import { type RetryOptions, withRetry } from "./retry.js";

/** How to reach the model: llm's own options, onto which the engine maps settings. */
export interface LlmOptions {
  /** Forces a wire format; otherwise hosts on anthropic.com get Anthropic, all others OpenAI-compatible. */
  kind?: ProviderKind;
  /** Default: the kind's public endpoint (Anthropic when no kind is given). */
  baseUrl?: string;
  /** Extra headers for every request (sent only to `baseUrl`'s host). */
  headers?: Record<string, string>;
  /** The model used when a request's `model` is empty. */
  model?: string;
  /** Tried in order when a model fails before any answer arrived (same provider and key). */
  fallbacks?: readonly string[];
  /** Price overrides per model (used by `priceRequest`, not by the client). */
  pricing?: PricingOverrides;
  /** An explicit key for `baseUrl`'s host; skips the lookup. */
  apiKey?: string;
  /** OpenAI-compatible: send cache marks as `cache_control` (default: on for openrouter.ai). */
  cacheControl?: boolean;
  /** A stream silent for this long fails with `timeout` and is retried (default 5 min). */
  idleTimeoutMs?: number;
  /** The retry schedule (default 5 attempts, 0.5 s doubling, retry-after up to 60 s). */
  retry?: RetryOptions;
}

/** What the composition root hands in: the environment and the data folder (for auth.json). */
export interface LlmEnvironment {
  env: Env;
  dataDir?: string | undefined;
}

/** One wire-format client for an endpoint and key, without retries or fallbacks. */
export function createWireClient(
  endpoint: ProviderEndpoint,
  config: Omit<ClientConfig, "baseUrl">,
): ModelClient {
  const full: ClientConfig = { ...config, baseUrl: endpoint.baseUrl };
  return endpoint.kind === "anthropic"
    ? new AnthropicClient(full)
    : new OpenAiCompatibleClient(full);
}

async function* failing(
  message: string,
  kind: "invalidRequest" | "authentication",
): AsyncGenerator<ModelEvent> {
  yield { type: "error", error: { kind, message } };
}

/**
 * The client the engine talks to: provider detection, the key for the endpoint's host
 * (resolved on the first request, see `resolveApiKey`), the wire client, retries and
 * fallbacks. Never throws: a client that cannot be built (a bad base URL, a damaged
 * auth.json) fails each request with the reason as an error event, so a chat still opens.
 * Importing this module loads no SDK; the first stream of each kind does.
 */
export function createModelClient(options: LlmOptions, environment: LlmEnvironment): ModelClient {
  const detected = detectProvider(options);
  if (!detected.ok) return { stream: () => failing(detected.message, "invalidRequest") };
  const endpoint = detected.endpoint;
  let wire: Promise<ModelClient> | undefined;
  let ready: ModelClient | undefined;
  const build = async (): Promise<ModelClient> => {
    const key =
      options.apiKey ??
      (
        await resolveApiKey({
          host: endpoint.host,
          env: environment.env,
          dataDir: environment.dataDir,
          kind: endpoint.kind,
        })
      )?.key;
    ready = createWireClient(endpoint, {
      apiKey: key,
      ...(environment.env.ZENGINE_HTTP === "fetch" ? { transport: "fetch" as const } : {}),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      ...(options.cacheControl !== undefined ? { cacheControl: options.cacheControl } : {}),
    });
    return ready;
  };
  async function* first(request: ModelRequest, streamOptions?: StreamOptions) {
    wire ??= build();
    let client: ModelClient;
    try {
      client = await wire;
    } catch (error) {
      wire = undefined;
      yield* failing(`cannot resolve the API key: ${(error as Error).message}`, "authentication");
      return;
    }
    yield* client.stream(request, streamOptions);
  }
  // Once the key is known, streams go straight to the wire client (no extra layer).
  const lazy: ModelClient = {
    stream: (request, streamOptions) =>
      ready ? ready.stream(request, streamOptions) : first(request, streamOptions),
  };
  const retried = withRetry(lazy, options.retry);
  const withFallbacks = options.fallbacks?.length
    ? new FallbackClient(retried, options.fallbacks)
    : retried;
  return {
    stream: (request, streamOptions) =>
      withFallbacks.stream(
        { ...request, model: request.model || (options.model ?? "") },
        streamOptions,
      ),
  };
}
