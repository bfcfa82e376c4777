import { existsSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { createFileExclusiveSync } from "./atomic-write.js";
import {
  applyMcpJsonApproval,
  type McpJsonApproval,
  readClaudeSettings,
} from "./claude-settings.js";
import { loadSettingsFile, loadV1File, type SettingsLayer } from "./layer-file.js";
import { readMcpJson } from "./mcp-json.js";
import type { Env, Paths } from "./paths.js";
import type { SettingsProblem } from "./problems.js";
import { lazily } from "@z-engine/protocol";
import type { z } from "zod";
import { Sections, type SettingsFile } from "./schema.js";

/** The project files, relative to the project root. */
export const PROJECT_FILES = {
  settings: join(".z-engine", "settings.toml"),
  local: join(".z-engine", "settings.local.toml"),
  v1: join(".z-engine", "config.toml"),
  mcpJson: ".mcp.json",
  claudeSettings: join(".claude", "settings.json"),
  claudeLocal: join(".claude", "settings.local.json"),
} as const;

/** The user's Claude Code settings file, `~/.claude/settings.json`. */
export function claudeUserSettingsFile(paths: Paths): string {
  return join(paths.home, ".claude", "settings.json");
}

/**
 * The user's Claude Code settings (`~/.claude/settings.json`) as a user layer, below
 * zeng's own user settings.toml; undefined when missing.
 */
export function loadClaudeUserLayer(
  paths: Paths,
  problems: SettingsProblem[],
): { layer: SettingsLayer; approval: McpJsonApproval } | undefined {
  const file = claudeUserSettingsFile(paths);
  return readClaudeSettings(file, "user", join(paths.home, ".claude"), problems);
}

const CONVERTED_HEADER = (from: string) =>
  `# Converted by Z Engine from the v1 file ${from}, which is left untouched.\n\n`;

/** Renders settings as a new TOML file (for conversions; edits go through toml-patch). */
export function renderSettings(values: SettingsFile, header = ""): string {
  return header + stringify(values);
}

/**
 * The user layer: `<configDir>/settings.toml`, or, when it is missing, the v1
 * `<configDir>/config.toml` converted once into settings.toml (config.toml is left as it
 * is). A failed write is reported and the converted values still apply.
 */
export function loadUserLayer(
  paths: Paths,
  problems: SettingsProblem[],
): SettingsLayer | undefined {
  const file = paths.userSettingsFile;
  const root = paths.configDir;
  const values = loadSettingsFile(file, problems);
  if (values !== undefined) return { level: "user", file, root, values };
  const v1 = join(paths.configDir, "config.toml");
  const imported = loadV1File(v1, problems);
  if (imported === undefined) return undefined;
  try {
    createFileExclusiveSync(file, renderSettings(imported, CONVERTED_HEADER(v1)));
  } catch (error) {
    problems.push({
      file,
      message: `could not write the converted v1 settings: ${(error as Error).message}`,
    });
  }
  return { level: "user", file, root, values: imported, importedFrom: v1 };
}

/** `.z-engine/settings.toml`, or, when missing, `.z-engine/config.toml` converted in memory. */
function zengProjectLayer(
  projectRoot: string,
  problems: SettingsProblem[],
): SettingsLayer | undefined {
  const settingsFile = join(projectRoot, PROJECT_FILES.settings);
  const settings = loadSettingsFile(settingsFile, problems);
  if (settings !== undefined)
    return { level: "project", file: settingsFile, root: projectRoot, values: settings };
  const v1 = join(projectRoot, PROJECT_FILES.v1);
  const imported = existsSync(v1) ? loadV1File(v1, problems) : undefined;
  if (!imported) return undefined;
  return {
    level: "project",
    file: settingsFile,
    root: projectRoot,
    values: imported,
    importedFrom: v1,
  };
}

/**
 * The project layers, lowest first: the servers of `.mcp.json` (with the
 * `enabledMcpjsonServers` / `disabledMcpjsonServers` of the Claude Code settings files
 * applied), `.claude/settings.json`, `.z-engine/settings.toml` (or, when missing,
 * `.z-engine/config.toml` converted in memory), `.claude/settings.local.json` and
 * `.z-engine/settings.local.toml`: at each scope zeng's own file wins on conflict.
 * `userApprovals` are the `.mcp.json` approvals of the user's Claude Code settings.
 * Missing files give no layer.
 */
export function loadProjectLayers(
  projectRoot: string,
  problems: SettingsProblem[],
  userApprovals: readonly McpJsonApproval[] = [],
): SettingsLayer[] {
  const layers: SettingsLayer[] = [];
  const mcpFile = join(projectRoot, PROJECT_FILES.mcpJson);
  const mcp = readMcpJson(mcpFile, problems);
  const shared = readClaudeSettings(
    join(projectRoot, PROJECT_FILES.claudeSettings),
    "project",
    projectRoot,
    problems,
  );
  const zeng = zengProjectLayer(projectRoot, problems);
  const claudeLocal = readClaudeSettings(
    join(projectRoot, PROJECT_FILES.claudeLocal),
    "local",
    projectRoot,
    problems,
  );
  const approvals = [...userApprovals];
  for (const c of [shared, claudeLocal]) if (c) approvals.push(c.approval);
  if (mcp) {
    const values = applyMcpJsonApproval(mcp, approvals);
    layers.push({ level: "project", file: mcpFile, root: projectRoot, values });
  }
  if (shared) layers.push(shared.layer);
  if (zeng) layers.push(zeng);
  if (claudeLocal) layers.push(claudeLocal.layer);
  const localFile = join(projectRoot, PROJECT_FILES.local);
  const local = loadSettingsFile(localFile, problems);
  if (local !== undefined)
    layers.push({ level: "local", file: localFile, root: projectRoot, values: local });
  return layers;
}

/** The variables that override settings, and the key each one sets. */
export const ENV_OVERRIDES: readonly {
  name: string;
  section: "model" | "provider" | "shell";
  key: string;
  schema: z.ZodType;
}[] = [
  {
    name: "ZENGINE_MODEL",
    section: "model",
    key: "main",
    schema: lazily(() => Sections.model.shape.main),
  },
  {
    name: "ZENGINE_PROVIDER",
    section: "provider",
    key: "kind",
    schema: lazily(() => Sections.provider.shape.kind),
  },
  {
    name: "ZENGINE_BASE_URL",
    section: "provider",
    key: "base_url",
    schema: lazily(() => Sections.provider.shape.base_url),
  },
  {
    name: "ZENGINE_SHELL",
    section: "shell",
    key: "program",
    schema: lazily(() => Sections.shell.shape.program),
  },
];

/**
 * The environment layer (highest): `ZENGINE_MODEL` → model.main, `ZENGINE_PROVIDER` →
 * provider.kind, `ZENGINE_BASE_URL` → provider.base_url, `ZENGINE_SHELL` → shell.program.
 * Empty variables are unset; a bad value is reported as `env:NAME` and ignored.
 */
export function envLayer(
  env: Env,
  root: string,
  problems: SettingsProblem[],
): SettingsLayer | undefined {
  const values: Record<string, Record<string, unknown>> = {};
  for (const { name, section, key, schema } of ENV_OVERRIDES) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? "invalid value";
      problems.push({ file: `env:${name}`, key: `${section}.${key}`, message });
      continue;
    }
    values[section] = { ...values[section], [key]: parsed.data };
  }
  if (Object.keys(values).length === 0) return undefined;
  return { level: "env", file: "env", root, values: values as SettingsFile };
}
