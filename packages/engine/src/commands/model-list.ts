import { catalogProvider, detectProvider } from "@z-engine/llm";
import type { CommandHost } from "./host.js";

const SHOWN = 30;

/**
 * The session's provider (models.dev's key, from the settings' provider kind and base URL) and
 * the model ids the catalog knows for it; `known` is undefined when the catalog cannot list
 * (a host's own catalog), and then any id is taken. Never throws.
 */
export function knownModels(host: Pick<CommandHost, "config" | "catalog">): {
  provider: string;
  known: readonly string[] | undefined;
} {
  const p = host.config.settings.provider;
  const detected = detectProvider({ kind: p.kind, baseUrl: p.base_url });
  const provider = detected.ok ? catalogProvider(detected.endpoint) : (p.kind ?? "anthropic");
  const known = host.catalog.models?.(provider);
  return { provider, known: known && known.length > 0 ? known : undefined };
}

/** The markdown list `/model` shows under its answer. */
export function modelList(provider: string, known: readonly string[]): string {
  const more = known.length > SHOWN ? [`- … ${known.length - SHOWN} more`] : [];
  return [
    "",
    "",
    `Models for ${provider}:`,
    "",
    ...known.slice(0, SHOWN).map((id) => `- ${id}`),
    ...more,
  ].join("\n");
}
