import { type Env, loadSettings, type Paths } from "@z-engine/config";
import { detectProvider, saveApiKey } from "@z-engine/llm";

/** Where {@link storeProviderKey} stored a key. */
export interface StoredKey {
  /** The provider host the key is for (keys are kept per host). */
  readonly host: string;
  /** The auth.json written (mode 0600). */
  readonly file: string;
}

/** The provider's base URL in the settings cannot be used: nothing was stored. */
export class ProviderKeyError extends Error {
  readonly code = "providerKey.badProvider";
}

/**
 * Stores `apiKey` in the data folder's auth.json (mode 0600, other hosts kept) for the
 * provider the user's settings and `ZENGINE_*` variables name (`zeng login`). Project
 * settings are not read: a project cannot choose where a key goes. Throws
 * ProviderKeyError for an unusable base URL, or llm's LlmError (`authFile`) when auth.json
 * cannot be read or written.
 */
export async function storeProviderKey(
  options: { readonly paths: Paths; readonly env: Env },
  apiKey: string,
): Promise<StoredKey> {
  const { settings } = loadSettings({
    env: options.env,
    paths: options.paths,
    projectRoot: options.paths.configDir,
    trusted: false,
  });
  const detected = detectProvider({
    kind: settings.provider.kind,
    baseUrl: settings.provider.base_url,
  });
  if (!detected.ok) throw new ProviderKeyError(detected.message);
  await saveApiKey(options.paths.dataDir, detected.endpoint.host, apiKey);
  return { host: detected.endpoint.host, file: `${options.paths.dataDir}/auth.json` };
}
