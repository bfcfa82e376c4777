import type { ProviderKind } from "@z-engine/protocol";

export type { ProviderKind };

/** Where requests go and in which format. */
export interface ProviderEndpoint {
  kind: ProviderKind;
  baseUrl: string;
  /** `URL.host`, lower case (with the port when it is not the default): keys are stored per host. */
  host: string;
}

/** The result of {@link detectProvider}. */
export type DetectResult =
  | { ok: true; endpoint: ProviderEndpoint }
  | { ok: false; message: string };

/** Default base URLs per kind. */
export const DEFAULT_BASE_URLS: Record<ProviderKind, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

/** True for hosts on anthropic.com. */
export function isAnthropicHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === "anthropic.com" || h.endsWith(".anthropic.com");
}

/**
 * Which format a base URL gets: hosts on anthropic.com the Anthropic Messages format,
 * everything else OpenAI-compatible chat completions; `kind` forces either. Without a base
 * URL, the kind's default endpoint (Anthropic when neither is given). Returns a value, never
 * throws: a base URL that does not parse (or is not http/https) gives `ok: false`.
 */
export function detectProvider(options: {
  kind?: ProviderKind | undefined;
  baseUrl?: string | undefined;
}): DetectResult {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URLS[options.kind ?? "anthropic"]).trim();
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { ok: false, message: `the provider base URL ${JSON.stringify(baseUrl)} is not a URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      ok: false,
      message: `the provider base URL must be http or https, not ${url.protocol}`,
    };
  }
  const kind = options.kind ?? (isAnthropicHost(url.hostname) ? "anthropic" : "openai");
  return {
    ok: true,
    endpoint: { kind, baseUrl: baseUrl.replace(/\/+$/, ""), host: url.host.toLowerCase() },
  };
}

const CATALOG_PROVIDERS: Array<[(hostname: string) => boolean, string]> = [
  [isAnthropicHost, "anthropic"],
  [(h) => h === "api.openai.com", "openai"],
  [(h) => h === "openrouter.ai" || h.endsWith(".openrouter.ai"), "openrouter"],
  [(h) => h === "generativelanguage.googleapis.com", "google"],
  [(h) => h === "api.groq.com", "groq"],
  [(h) => h === "api.deepseek.com", "deepseek"],
  [(h) => h === "api.mistral.ai", "mistral"],
  [(h) => h === "api.x.ai", "xai"],
];

/**
 * The models.dev provider key of an endpoint (`anthropic`, `openai`, `openrouter`, ...): by
 * its host, else its wire format's (a custom or local server speaking that format). Pure.
 */
export function catalogProvider(endpoint: ProviderEndpoint): string {
  const hostname = endpoint.host.replace(/:\d+$/, "");
  return CATALOG_PROVIDERS.find(([test]) => test(hostname))?.[1] ?? endpoint.kind;
}
