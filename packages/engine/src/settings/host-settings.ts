import type { EngineOptions } from "./engine-options.js";

type Section = Readonly<Record<string, unknown>>;

function section(settings: EngineOptions["settings"], key: string): Section {
  const value = settings?.[key];
  return typeof value === "object" && value !== null ? (value as Section) : {};
}

/**
 * The host's settings layer: its `settings` object with `provider` mapped onto `[provider]`
 * (kind, base_url) and `[model] main`. Undefined when the host gave neither. The key is not
 * a setting: it goes to the default client factory.
 */
export function hostSettingsOf(options: EngineOptions): Section | undefined {
  const { provider, settings } = options;
  if (!provider && !settings) return undefined;
  if (!provider) return settings;
  return {
    ...settings,
    provider: {
      ...section(settings, "provider"),
      ...(provider.kind ? { kind: provider.kind } : {}),
      ...(provider.baseUrl ? { base_url: provider.baseUrl } : {}),
    },
    model: {
      ...section(settings, "model"),
      ...(provider.model ? { main: provider.model } : {}),
    },
  };
}
