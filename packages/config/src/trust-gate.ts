import type { EffectiveSettings } from "./effective.js";
import type { SettingsLayer } from "./layer-file.js";
import { type MergeContext, mergeLayers } from "./merge.js";
import type { SettingsFile } from "./schema.js";

/**
 * The categories an untrusted project may not set, named by their settings keys. This one
 * list is what the trust banner, `trustRequired` and `zeng trust` show.
 */
export const TRUST_GATED_CATEGORIES = [
  "hooks",
  "mcp.servers",
  "verification.checks",
  "permissions.mode",
  "permissions.allow",
  "permissions.additional_directories",
  "permissions.auto_allow_read_only_bash",
  "shell",
  "provider",
  "web",
  "lsp",
  "decisions",
  "agents.max_turns",
  "agents.session_cost_cap_usd",
  "agents.max_concurrent",
  "agents.max_depth",
  "verification.max_continuations",
  "pricing",
  "catalog",
  "experimental",
  "env",
] as const;

/** One trust-gated category. */
export type TrustCategory = (typeof TRUST_GATED_CATEGORIES)[number];

interface Gate {
  /** Whether a layer's values set anything of the category. */
  sets(values: SettingsFile): boolean;
  /** The values without the category. */
  strip(values: SettingsFile): SettingsFile;
  /** The category's effective value, to see whether it differed. */
  read(settings: EffectiveSettings): unknown;
}

function section<K extends keyof SettingsFile & keyof EffectiveSettings>(name: K): Gate {
  return {
    sets: (v) => v[name] !== undefined && Object.keys(v[name] as object).length > 0,
    strip: (v) => {
      const { [name]: _dropped, ...rest } = v;
      return rest;
    },
    read: (s) => s[name],
  };
}

function key<S extends "permissions" | "verification" | "mcp" | "agents", K extends string>(
  sec: S,
  name: K,
): Gate {
  const get = (v: SettingsFile) => (v[sec] as Record<string, unknown> | undefined)?.[name];
  return {
    sets: (v) => {
      const value = get(v);
      return Array.isArray(value)
        ? value.length > 0
        : value !== undefined &&
            (typeof value !== "object" || Object.keys(value as object).length > 0);
    },
    strip: (v) => {
      const inner = v[sec] as Record<string, unknown> | undefined;
      if (!inner || !(name in inner)) return v;
      const { [name]: _dropped, ...rest } = inner;
      return { ...v, [sec]: rest };
    },
    read: (s) => (s[sec] as Record<string, unknown>)[name],
  };
}

const GATES: Record<TrustCategory, Gate> = {
  hooks: section("hooks"),
  "mcp.servers": key("mcp", "servers"),
  "verification.checks": key("verification", "checks"),
  "permissions.mode": key("permissions", "mode"),
  "permissions.allow": key("permissions", "allow"),
  "permissions.additional_directories": key("permissions", "additional_directories"),
  "permissions.auto_allow_read_only_bash": key("permissions", "auto_allow_read_only_bash"),
  shell: section("shell"),
  provider: section("provider"),
  web: section("web"),
  lsp: section("lsp"),
  decisions: section("decisions"),
  // A project could raise the user's limits (rounds, spend, send-backs), price its model at
  // zero to dodge the cost cap, make the engine fetch any URL, or switch on unfinished
  // features (some of which start the decision sidecar).
  "agents.max_turns": key("agents", "max_turns"),
  "agents.session_cost_cap_usd": key("agents", "session_cost_cap_usd"),
  "agents.max_concurrent": key("agents", "max_concurrent"),
  "agents.max_depth": key("agents", "max_depth"),
  "verification.max_continuations": key("verification", "max_continuations"),
  pricing: section("pricing"),
  catalog: section("catalog"),
  experimental: section("experimental"),
  // Variables such as PATH, NODE_OPTIONS or BASH_ENV run the project's code in every program.
  env: section("env"),
};

const isProjectLayer = (layer: SettingsLayer) =>
  layer.level === "project" || layer.level === "local";

/**
 * Names the trust-gated categories that the project layers (`.mcp.json`, settings.toml,
 * settings.local.toml) set, in TRUST_GATED_CATEGORIES order; empty when they set none.
 */
export function trustGated(layers: readonly SettingsLayer[]): TrustCategory[] {
  const project = layers.filter(isProjectLayer);
  return TRUST_GATED_CATEGORIES.filter((c) => project.some((l) => GATES[c].sets(l.values)));
}

/** The project layers without any trust-gated category. */
export function stripGated(layers: readonly SettingsLayer[]): SettingsLayer[] {
  return layers.map((layer) => {
    if (!isProjectLayer(layer)) return layer;
    let values = layer.values;
    for (const category of TRUST_GATED_CATEGORIES) values = GATES[category].strip(values);
    return { ...layer, values };
  });
}

/** The outcome of merging an untrusted project's layers. */
export interface RestrictedSettings {
  readonly settings: EffectiveSettings;
  /** Categories whose value differs from what the project asked for, in list order. */
  readonly withheld: TrustCategory[];
}

/**
 * Merges the layers as for an untrusted project: every trust-gated category comes from
 * the user level (defaults, user file, environment), while the project's deny and ask
 * rules and its model, context, verification mode, appearance and the other sections still
 * apply. `withheld` lists each category whose value differs from the trusted merge. Pure.
 */
export function restrictToUserLevel(
  layers: readonly SettingsLayer[],
  ctx: MergeContext,
): RestrictedSettings {
  const full = mergeLayers(layers, ctx);
  const settings = mergeLayers(stripGated(layers), ctx);
  const withheld = TRUST_GATED_CATEGORIES.filter(
    (c) => JSON.stringify(GATES[c].read(full)) !== JSON.stringify(GATES[c].read(settings)),
  );
  return { settings, withheld };
}
