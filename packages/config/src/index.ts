/**
 * @z-engine/config: the settings schema, layers and merge, environment overrides, v1
 * import, the trust store, restrict-to-user-level and `resolvePaths(env)`. Everything
 * exported here is public API; everything else is internal.
 */

// Folders
export type { Env, Paths } from "./paths.js";
export { resolvePaths } from "./paths.js";

// The schema of one settings file (snake_case keys, every key optional)
export type { SectionName } from "./schema.js";
export {
  CheckEntry,
  DecisionRuleEntry,
  ExperimentalValue,
  HookEntry,
  HookEvent,
  LspServer,
  McpOAuth,
  McpServer,
  Price,
  ProviderKind,
  SECTION_NAMES,
  Sections,
  SettingsFile,
} from "./schema.js";

// Effective settings and their defaults
export type {
  EffectiveSettings,
  HookSetting,
  LayerLevel,
  RuleEntry,
  RuleList,
  SettingsOrigin,
} from "./effective.js";
export { DEFAULT_CATALOG_URL, DEFAULT_MODEL, defaultSettings } from "./defaults.js";

// Decision features: `[experimental] decisions_<name>`
export type { DecisionFeatureMode } from "./decision-modes.js";
export { decisionFeatureMode } from "./decision-modes.js";
// Custom rules: `[[decisions.rules]]`, read leniently (see `decisionRules`)
export type {
  DecisionRule,
  DecisionRuleSeam,
  DecisionRules,
} from "./decision-rules.js";
export { decisionRules, MAX_DECISION_RULES } from "./decision-rules.js";

// Loading, layers and merging
export type { LoadedSettings, LoadSettingsOptions } from "./load.js";
export { HOST_SETTINGS_FILE, loadSettings } from "./load.js";
export type { SettingsLayer } from "./layer-file.js";
export {
  ENV_OVERRIDES,
  envLayer,
  loadProjectLayers,
  loadUserLayer,
  PROJECT_FILES,
} from "./layers.js";
/** `~/.claude/settings.json` as a user layer (below the user's settings.toml), and its path. */
export { claudeUserSettingsFile, loadClaudeUserLayer } from "./layers.js";
/** Every settings file a project's settings are loaded from (to watch them); pure. */
export type { SettingsFileRef } from "./settings-files.js";
export { settingsFiles } from "./settings-files.js";
export { parseMcpJson, readMcpJson } from "./mcp-json.js";
/**
 * Claude Code's settings.json as a layer: `readClaudeSettings(file, level, root, problems)`
 * → `{ layer, approval }` or undefined when missing (never throws; bad JSON and unused keys
 * are problems); `applyMcpJsonApproval(mcpValues, approvals)` turns off the `.mcp.json`
 * servers `disabledMcpjsonServers` names or `enabledMcpjsonServers` leaves out.
 */
export type { ClaudeEnv, ClaudeSettingsLayer, McpJsonApproval } from "./claude-settings.js";
export { applyMcpJsonApproval, readClaudeSettings } from "./claude-settings.js";
/** Claude Code's `env` object as zeng's `[env]` (numbers and booleans as text; notes for the rest). */
export { claudeEnv } from "./claude-settings.js";
export type { McpServerSource, ProjectServerVariables } from "./mcp-sources.js";
export { mcpServerSources, projectServerVariables } from "./mcp-sources.js";
export type { MergeContext } from "./merge.js";
export { mergeLayers } from "./merge.js";
export type { SettingsProblem } from "./problems.js";
export { convertV1, v1KeyPath } from "./v1-import.js";

// Where each effective value comes from, and what an untrusted project would apply
/**
 * `settingOrigins(loaded)`: every effective setting with its origin (highest layer that sets
 * it, or the defaults), withheld project values named, secrets hidden. Pure.
 * `gatedProjectValues(layers)`: the trust-gated categories a project sets, per file. Pure.
 */
export type { GatedProjectValue, SettingWithOrigin, ValueOrigin } from "./origins.js";
export { gatedProjectValues, settingOrigins } from "./origins.js";

// Trust
export type { RestrictedSettings, TrustCategory } from "./trust-gate.js";
export { restrictToUserLevel, TRUST_GATED_CATEGORIES, trustGated } from "./trust-gate.js";
export type { TrustChecker } from "./trust-store.js";
export { TrustStore } from "./trust-store.js";

// Writing project settings
export type { EditResult, ProjectSettingsFile, TomlTable } from "./persist.js";
export {
  editProjectSettings,
  persistAdditionalDirectory,
  persistProjectRule,
} from "./persist.js";
/** Edits the user's settings.toml, keeping comments and other keys (see user-edit.ts). */
export { editUserSettings } from "./user-edit.js";

// Errors
export type { ConfigErrorCode } from "./errors.js";
export { ConfigError } from "./errors.js";
