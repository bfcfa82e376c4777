import { nodeFetch } from "./node-fetch.js";

/** What a wire-format client needs to reach one endpoint. */
export interface ClientConfig {
  /** The API's base URL (`https://api.anthropic.com`, `https://openrouter.ai/api/v1`, ...). */
  readonly baseUrl: string;
  /** The key for this base URL's host; without one the Anthropic client fails each request. */
  readonly apiKey?: string | undefined;
  /** Extra headers sent with every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Used when a request's `model` is empty. */
  readonly model?: string;
  /** A stream that sends nothing for this long ends in a `timeout` error (default 5 minutes; 0 turns it off). */
  readonly idleTimeoutMs?: number;
  /** OpenAI-compatible only: send cache marks as `cache_control` (default: on for openrouter.ai). */
  readonly cacheControl?: boolean;
  /**
   * How requests go out: `"node"` (default) over node:http/node:https (`nodeFetch`), `"fetch"`
   * through Node's own fetch (undici). `ZENGINE_HTTP=fetch` in the environment picks the latter.
   */
  readonly transport?: "node" | "fetch";
}

/**
 * Options both SDKs take: no retries of their own, no redirects (a key never follows one), no
 * logging, and `nodeFetch` as their fetch unless `transport` is `"fetch"`.
 */
export function sdkOptions(config: ClientConfig) {
  return {
    baseURL: config.baseUrl,
    ...(config.transport === "fetch" ? {} : { fetch: nodeFetch as unknown as typeof fetch }),
    maxRetries: 0,
    logLevel: "off" as const,
    fetchOptions: { redirect: "manual" as const },
    ...(config.headers ? { defaultHeaders: { ...config.headers } } : {}),
  };
}
