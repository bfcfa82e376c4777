import { loadSettings, type Paths, TrustStore } from "@z-engine/config";
import { detectProvider, resolveApiKey } from "@z-engine/llm";
import type { ProviderKind } from "@z-engine/protocol";

/** Whether a model request could be sent: the provider a folder's settings name and where its key comes from. */
export interface ProviderKeyReport {
  readonly kind: ProviderKind | null;
  /** The endpoint's host (keys are per host), null when the base URL is not valid. */
  readonly host: string | null;
  readonly model: string;
  /** Where the key comes from (`ZENGINE_API_KEY`, `ANTHROPIC_API_KEY`, `auth.json`, `host`), null when none was found. */
  readonly keySource: string | null;
  /** What is wrong, in words, when requests would fail for want of a key or an endpoint. */
  readonly problem?: string;
}

/**
 * Checks, without a session and without any request, whether the settings of `projectRoot`
 * (user settings, the project's as far as it is trusted, the environment) lead to a provider
 * and a key: `ZENGINE_API_KEY`, the provider's own variable, or `auth.json`. `apiKey` is a key
 * the host passes to the engine itself. Never rejects: a damaged auth.json is a `problem`.
 */
export async function checkProviderKey(options: {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly paths: Paths;
  readonly projectRoot: string;
  readonly apiKey?: string;
}): Promise<ProviderKeyReport> {
  const { settings } = loadSettings({
    env: options.env,
    paths: options.paths,
    projectRoot: options.projectRoot,
    trusted: new TrustStore(options.paths.trustFile),
  });
  const model = settings.model.main;
  const detected = detectProvider({
    kind: settings.provider.kind,
    baseUrl: settings.provider.base_url,
  });
  if (!detected.ok)
    return { kind: null, host: null, model, keySource: null, problem: detected.message };
  const { kind, host } = detected.endpoint;
  if (options.apiKey) return { kind, host, model, keySource: "host" };
  try {
    const key = await resolveApiKey({
      env: options.env,
      host,
      dataDir: options.paths.dataDir,
      kind,
    });
    if (key) return { kind, host, model, keySource: key.source };
  } catch (error) {
    return { kind, host, model, keySource: null, problem: (error as Error).message };
  }
  const variable = kind === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
  return {
    kind,
    host,
    model,
    keySource: null,
    problem: `no API key for ${host}: set ZENGINE_API_KEY (or ${variable}), or store one in auth.json; every turn will fail until then`,
  };
}
