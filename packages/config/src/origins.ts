import type { LayerLevel } from "./effective.js";
import type { SettingsLayer } from "./layer-file.js";
import type { LoadedSettings } from "./load.js";
import { TRUST_GATED_CATEGORIES } from "./trust-gate.js";

/** Where an effective value comes from: the highest layer that sets it, or the defaults. */
export interface ValueOrigin {
  readonly level: LayerLevel;
  /** The file of that layer (`env` for the environment); absent for the defaults. */
  readonly file?: string;
}

/** One effective setting, its value and where it comes from. */
export interface SettingWithOrigin {
  /** The dotted key, as a settings file writes it: `permissions.mode`, `mcp.servers.github.command`. */
  readonly key: string;
  /** The effective value (values under `headers` and `env` maps are hidden: they hold secrets). */
  readonly value: unknown;
  readonly origin: ValueOrigin;
  /**
   * Lists that add up across layers (`additional_directories`, hooks, `extra_writable`):
   * every layer that contributed, lowest first.
   */
  readonly combined?: readonly ValueOrigin[];
  /** A value an untrusted project sets that is withheld (the effective value is the user's). */
  readonly withheldFrom?: string;
}

/** Keys whose lists combine over the layers rather than the highest one winning. */
const COMBINED = new Set(["permissions.additional_directories", "shell.sandbox.extra_writable"]);
/** Listed with their own origins elsewhere (`RuleEntry.origin`). */
const RULE_KEYS = new Set(["permissions.allow", "permissions.ask", "permissions.deny"]);
/** Maps whose values are secrets (keys shown, values hidden). */
const SECRET_MAPS = new Set(["headers", "search_headers", "env"]);
const HIDDEN = "(hidden)";

const isTable = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Leaf keys and values of a table; secret maps keep their keys with hidden values. */
function leaves(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (
    !isTable(value) ||
    COMBINED.has(prefix) ||
    RULE_KEYS.has(prefix) ||
    prefix.startsWith("hooks.")
  ) {
    if (prefix !== "") out.set(prefix, value);
    return;
  }
  const name = prefix.slice(prefix.lastIndexOf(".") + 1);
  for (const [key, inner] of Object.entries(value)) {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    if (SECRET_MAPS.has(name)) out.set(path, HIDDEN);
    else leaves(inner, path, out);
  }
}

function gated(key: string): boolean {
  return TRUST_GATED_CATEGORIES.some((c) => key === c || key.startsWith(`${c}.`));
}

function setsKey(layer: SettingsLayer, key: string): boolean {
  let at: unknown = layer.values;
  for (const part of key.split(".")) {
    if (!isTable(at) || !(part in at)) return false;
    at = at[part];
  }
  return at !== undefined;
}

const originOf = (layer: SettingsLayer): ValueOrigin => ({ level: layer.level, file: layer.file });

/**
 * Every effective setting with the layer it comes from: the highest layer that sets the key
 * (a project layer's gated key counts only when the project is trusted; otherwise it is named
 * in `withheldFrom`), or the defaults. Permission rules are left out (each `RuleEntry` carries
 * its origin). Values in `headers` and `env` maps are hidden. Sorted by key; pure.
 */
export function settingOrigins(loaded: LoadedSettings): SettingWithOrigin[] {
  const values = new Map<string, unknown>();
  leaves(loaded.settings, "", values);
  const out: SettingWithOrigin[] = [];
  for (const [key, value] of values) {
    if (RULE_KEYS.has(key)) continue;
    const project = (l: SettingsLayer) => l.level === "project" || l.level === "local";
    const applies = (l: SettingsLayer) => loaded.trusted || !project(l) || !gated(key);
    const setting = loaded.layers.filter((l) => setsKey(l, key));
    const applied = setting.filter(applies);
    const top = applied.at(-1);
    const withheld = setting.find((l) => !applies(l));
    out.push({
      key,
      value,
      origin: top ? originOf(top) : { level: "default" },
      ...(COMBINED.has(key) || key.startsWith("hooks.") ? { combined: applied.map(originOf) } : {}),
      ...(withheld ? { withheldFrom: withheld.file } : {}),
    });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** A trust-gated category a project sets, and what each of its files sets it to. */
export interface GatedProjectValue {
  readonly category: string;
  readonly files: readonly { readonly file: string; readonly value: unknown }[];
}

/** A copy of a value with every `headers`/`env` map's values hidden. */
function hideSecrets(value: unknown, name = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => hideSecrets(v));
  if (!isTable(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value))
    out[k] = SECRET_MAPS.has(name) ? HIDDEN : hideSecrets(v, k);
  return out;
}

/**
 * What trusting the project would apply: each trust-gated category its layers
 * (`.mcp.json`, settings.toml, settings.local.toml) set, with each file's value (secrets in
 * `headers` and `env` maps hidden), in TRUST_GATED_CATEGORIES order. Pure.
 */
export function gatedProjectValues(layers: readonly SettingsLayer[]): GatedProjectValue[] {
  const project = layers.filter((l) => l.level === "project" || l.level === "local");
  const out: GatedProjectValue[] = [];
  for (const category of TRUST_GATED_CATEGORIES) {
    const files = project.flatMap((layer) => {
      let at: unknown = layer.values;
      for (const part of category.split(".")) at = isTable(at) ? at[part] : undefined;
      const name = category.slice(category.lastIndexOf(".") + 1);
      return at === undefined ? [] : [{ file: layer.file, value: hideSecrets(at, name) }];
    });
    if (files.length > 0) out.push({ category, files });
  }
  return out;
}
