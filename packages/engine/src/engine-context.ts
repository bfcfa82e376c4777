import { homedir } from "node:os";
import { join } from "node:path";
import { type EffectiveSettings, type Paths, TrustStore } from "@z-engine/config";
import { childEnvironment, neutralFolder } from "@z-engine/host";
import { ModelCatalog as LlmCatalog } from "@z-engine/llm";
import { FileSessionStore } from "@z-engine/store";
import { SidecarPool } from "./sidecars/sidecar-pool.js";
import type { EngineOptions } from "./settings/engine-options.js";
import type { OpenContext } from "./session/open-context.js";
import { FileWatches } from "./settings/file-watch.js";
import { hostSettingsOf } from "./settings/host-settings.js";
import { catalogView, llmClientFactory, pricingOverrides } from "./settings/models.js";
import { createRedactor, scrubbedEnvironment, secretValues } from "./util/secrets.js";

/** The models catalog of an engine: opened on the first settings, unless the host gave one. */
export interface EngineCatalog {
  /** Opens the catalog once (the later calls share the first). */
  readonly open: (settings: EffectiveSettings) => Promise<void>;
  /** A session's view of the catalog, priced by its settings. */
  readonly catalogFor: OpenContext["catalogFor"];
  /** Waits for an opening in flight and closes the catalog. Never rejects. */
  close(): Promise<void>;
}

/** The engine's catalog (`options.catalog`, else the llm package's, from `options.catalogSource`). */
export function engineCatalog(options: EngineOptions, paths: Paths): EngineCatalog {
  let llmCatalog: LlmCatalog | undefined;
  let opening: Promise<void> | undefined;
  const source = options.catalogSource ?? "off";
  return {
    open: (settings) => {
      if (options.catalog) return Promise.resolve();
      opening ??= LlmCatalog.open({
        dataDir: paths.dataDir,
        source: source === "settings" ? settings.catalog.source : source,
        modelsJsonPath: join(paths.configDir, "models.json"),
      }).then((catalog) => {
        llmCatalog = catalog;
      });
      return opening;
    },
    catalogFor: (settings) =>
      options.catalog ?? {
        info: (model) => catalogView(llmCatalog, () => ({})).info(model),
        price: (model, usage) =>
          catalogView(llmCatalog, () => pricingOverrides(settings())).price(model, usage),
        models: (provider) => catalogView(llmCatalog, () => ({})).models?.(provider) ?? [],
      },
    close: async () => {
      await opening?.catch(() => {});
      llmCatalog?.close();
    },
  };
}

/**
 * What every session of an engine opens with (all but its event sink): the folders, the
 * environment and its scrubbed copy for children, the shared sidecars, store, clients,
 * trust store and watches, and the engine's lifetime as `parent`.
 */
export function engineContext(
  options: EngineOptions,
  env: Readonly<Record<string, string | undefined>>,
  paths: Paths,
  catalog: EngineCatalog,
  parent: AbortSignal,
): Omit<OpenContext, "sink"> {
  const childEnv = scrubbedEnvironment(env);
  return {
    paths,
    env,
    childEnv,
    // The configured decision sidecars start in the engine's empty folder, shared by sessions.
    sidecars: new SidecarPool({
      folder: () => neutralFolder(paths.dataDir),
      env: childEnvironment(childEnv),
    }),
    redactor: createRedactor([
      ...secretValues(env),
      ...(options.provider?.apiKey ? [options.provider.apiKey] : []),
    ]),
    store: options.store ?? new FileSessionStore({ dataDir: paths.dataDir }),
    clientFactory:
      options.clientFactory ?? llmClientFactory(env, paths.dataDir, options.provider?.apiKey),
    catalogFor: catalog.catalogFor,
    onSettings: catalog.open,
    hostSettings: hostSettingsOf(options),
    checkpoints: options.checkpoints !== false,
    trustStore: new TrustStore(join(paths.dataDir, "trust.json")),
    extraTools: options.tools ?? [],
    shell: options.shell,
    sandbox: options.sandbox,
    headless: options.headless ?? false,
    ...(options.mcpSampling ? { mcpSampling: options.mcpSampling } : {}),
    repoMap: options.repoMap ?? true,
    ...(options.watchSettings === false ? {} : { settingsWatch: new FileWatches() }),
    clock: options.clock ?? Date.now,
    homeDir: options.homeDir ?? homedir(),
    parent,
  };
}
