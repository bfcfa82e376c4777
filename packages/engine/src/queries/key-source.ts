import { detectProvider, resolveApiKey } from "@z-engine/llm";
import type { ProviderKind } from "@z-engine/protocol";

/** Where a session's provider key would come from, for a host's welcome line. */
export interface KeySource {
  /** The host requests go to (`api.anthropic.com`, `127.0.0.1:4000`). */
  readonly host: string;
  /** `ZENGINE_API_KEY`, the provider's own variable (`ANTHROPIC_API_KEY`), `auth.json`, or undefined: none. */
  readonly source?: string;
  /** Why the endpoint could not be worked out (a bad base URL); then `host` is empty. */
  readonly problem?: string;
}

/**
 * Where the key for the settings' provider comes from, looked up as a request would (the
 * variables, then `auth.json` in `dataDir`), without reading more than the file's entry for
 * that host. Never rejects: a damaged auth.json is a `problem`.
 */
export async function keySource(options: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly dataDir: string;
  readonly provider: { readonly kind?: ProviderKind; readonly base_url?: string };
}): Promise<KeySource> {
  const detected = detectProvider({
    kind: options.provider.kind,
    baseUrl: options.provider.base_url,
  });
  if (!detected.ok) return { host: "", problem: detected.message };
  const host = detected.endpoint.host;
  try {
    const key = await resolveApiKey({ host, env: options.env, dataDir: options.dataDir });
    return key ? { host, source: key.source } : { host };
  } catch (error) {
    return { host, problem: (error as Error).message };
  }
}
