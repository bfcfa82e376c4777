import type { EffectiveSettings } from "./effective.js";
import { type SettingsLayer, validateSettings } from "./layer-file.js";
import { envLayer, loadClaudeUserLayer, loadProjectLayers, loadUserLayer } from "./layers.js";
import { mergeLayers } from "./merge.js";
import type { Env, Paths } from "./paths.js";
import type { SettingsProblem } from "./problems.js";
import { restrictToUserLevel, type TrustCategory } from "./trust-gate.js";
import type { TrustChecker } from "./trust-store.js";

/** What loadSettings needs. */
export interface LoadSettingsOptions {
  /** The environment for the `ZENGINE_*` overrides (pass `process.env` at the composition root). */
  readonly env: Env;
  /** From `resolvePaths(env)`. */
  readonly paths: Paths;
  /** The project folder (`--cwd`, else the working directory). */
  readonly projectRoot: string;
  /** Whether the project is trusted, or a store to ask (e.g. a TrustStore). */
  readonly trusted: boolean | TrustChecker;
  /**
   * A host's settings in code: an object shaped like a settings file (snake_case keys),
   * validated like one (bad keys become problems under the file name `host settings`) and
   * layered at the user level, just above the user's settings.toml.
   */
  readonly hostSettings?: unknown;
}

/** Everything loadSettings found. */
export interface LoadedSettings {
  /** The effective settings (restricted to the user level when untrusted). */
  readonly settings: EffectiveSettings;
  /** The layers read, lowest first (defaults are not a layer: see `defaultSettings()`). */
  readonly layers: readonly SettingsLayer[];
  /** Every problem found, in reading order. */
  readonly problems: readonly SettingsProblem[];
  readonly trusted: boolean;
  /** What differs because the project is untrusted; empty when trusted. */
  readonly withheld: readonly TrustCategory[];
}

/** The host's settings object as a user-level layer. */
function hostLayer(values: unknown, paths: Paths, problems: SettingsProblem[]): SettingsLayer {
  const file = HOST_SETTINGS_FILE;
  const validated = validateSettings(file, "", values ?? {}, problems);
  return { level: "user", file, root: paths.configDir, values: validated };
}

/** The name problems in a host's settings object carry as their file. */
export const HOST_SETTINGS_FILE = "host settings";

/**
 * Reads every layer (`~/.claude/settings.json`, the user settings.toml, the project's
 * `.mcp.json`, `.claude/settings.json`, `.z-engine/settings.toml`, `.claude/settings.local.json`,
 * `.z-engine/settings.local.toml`, then the environment) and merges them over the defaults. Bad files
 * and keys become `problems`, never exceptions. Reads synchronously (small files; about a
 * millisecond in all); the one write is the one-time conversion of a user v1 config.toml
 * into settings.toml. An untrusted project's trust-gated categories come from the user
 * level, and `withheld` names those that differ.
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const { env, paths, projectRoot } = options;
  const problems: SettingsProblem[] = [];
  const layers: SettingsLayer[] = [];
  const claudeUser = loadClaudeUserLayer(paths, problems);
  if (claudeUser) layers.push(claudeUser.layer);
  const user = loadUserLayer(paths, problems);
  if (user) layers.push(user);
  if (options.hostSettings !== undefined)
    layers.push(hostLayer(options.hostSettings, paths, problems));
  const approvals = claudeUser ? [claudeUser.approval] : [];
  layers.push(...loadProjectLayers(projectRoot, problems, approvals));
  const fromEnv = envLayer(env, projectRoot, problems);
  if (fromEnv) layers.push(fromEnv);
  const trusted =
    typeof options.trusted === "boolean" ? options.trusted : options.trusted.isTrusted(projectRoot);
  const ctx = { home: paths.home };
  if (trusted)
    return { settings: mergeLayers(layers, ctx), layers, problems, trusted, withheld: [] };
  const restricted = restrictToUserLevel(layers, ctx);
  return {
    settings: restricted.settings,
    layers,
    problems,
    trusted,
    withheld: restricted.withheld,
  };
}
