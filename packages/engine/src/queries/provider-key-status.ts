import type { Env, Paths, TrustStore } from "@z-engine/config";
import { loadSettings } from "@z-engine/config";
import { detectProvider, providerKeyVariable, resolveApiKey, saveApiKey } from "@z-engine/llm";

/**
 * Whether sessions of a folder have a key for their provider (what an ACP agent's
 * `authenticate` asks). `needed` is false when the host builds its own model clients (or gave
 * the engine a key): then there is nothing to find.
 */
export interface ProviderKeyStatus {
  readonly needed: boolean;
  readonly found: boolean;
  /** Where requests go (`URL.host`), when the settings name a usable endpoint. */
  readonly host?: string;
  /** Where a key is looked up, in order: variables, then auth.json (for people). */
  readonly sources: readonly string[];
  /** Why no key was found or looked up (an unusable base URL, a damaged auth.json). */
  readonly problem?: string;
}

/** What the lookup takes of the engine. */
export interface ProviderKeyContext {
  readonly env: Env;
  readonly paths: Paths;
  readonly hostSettings: Readonly<Record<string, unknown>> | undefined;
  readonly trustStore: TrustStore;
  /** The host builds its clients itself, or gave a key: no key is needed. */
  readonly ownClients: boolean;
}

function endpointOf(ctx: ProviderKeyContext, folder: string) {
  const { settings } = loadSettings({
    env: ctx.env,
    paths: ctx.paths,
    projectRoot: folder,
    trusted: ctx.trustStore,
    ...(ctx.hostSettings ? { hostSettings: ctx.hostSettings } : {}),
  });
  return detectProvider({ kind: settings.provider.kind, baseUrl: settings.provider.base_url });
}

/**
 * Looks up the key sessions of `folder` would use (its settings as trust allows them), as
 * the engine's default client does: `ZENGINE_API_KEY`, the provider's own variable for its
 * own host, then auth.json. Never rejects: problems are in the status.
 */
export async function providerKeyStatus(
  ctx: ProviderKeyContext,
  folder: string,
): Promise<ProviderKeyStatus> {
  if (ctx.ownClients) return { needed: false, found: true, sources: [] };
  let detected: ReturnType<typeof detectProvider>;
  try {
    detected = endpointOf(ctx, folder);
  } catch (error) {
    return { needed: true, found: false, sources: [], problem: (error as Error).message };
  }
  if (!detected.ok) return { needed: true, found: false, sources: [], problem: detected.message };
  const { host } = detected.endpoint;
  const variable = providerKeyVariable(host);
  const sources = ["ZENGINE_API_KEY", ...(variable ? [variable] : []), `auth.json (${host})`];
  try {
    const key = await resolveApiKey({ host, env: ctx.env, dataDir: ctx.paths.dataDir });
    return { needed: true, found: key !== undefined, host, sources };
  } catch (error) {
    return { needed: true, found: false, host, sources, problem: (error as Error).message };
  }
}

/**
 * Stores `apiKey` in auth.json for the host sessions of `folder` send to (0600, atomic).
 * Rejects when the settings name no usable endpoint or the file cannot be written.
 */
export async function storeFolderKey(
  ctx: ProviderKeyContext,
  folder: string,
  apiKey: string,
): Promise<string> {
  const detected = endpointOf(ctx, folder);
  if (!detected.ok) throw new Error(detected.message);
  await saveApiKey(ctx.paths.dataDir, detected.endpoint.host, apiKey);
  return detected.endpoint.host;
}
