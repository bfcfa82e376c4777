import { join } from "node:path";
import { claudeUserSettingsFile, PROJECT_FILES } from "./layers.js";
import type { Paths } from "./paths.js";

/** One file `loadSettings` reads, and the level its values sit at. */
export interface SettingsFileRef {
  /** Absolute path (the file may not exist yet). */
  readonly file: string;
  readonly level: "user" | "project" | "local";
}

/**
 * Every file `loadSettings` reads for a project, lowest layer first: `~/.claude/settings.json`,
 * the user's settings.toml (and the v1 config.toml it is converted from), then the project's
 * `.mcp.json`, `.claude/settings.json`, `.z-engine/settings.toml` (and its v1 config.toml),
 * `.claude/settings.local.json` and `.z-engine/settings.local.toml`. Pure: nothing is read
 * or created, so a host can watch them (the engine's live settings do).
 */
export function settingsFiles(paths: Paths, projectRoot: string): SettingsFileRef[] {
  const project = (file: string, level: "project" | "local" = "project") => ({
    file: join(projectRoot, file),
    level,
  });
  return [
    { file: claudeUserSettingsFile(paths), level: "user" },
    { file: paths.userSettingsFile, level: "user" },
    { file: join(paths.configDir, "config.toml"), level: "user" },
    project(PROJECT_FILES.mcpJson),
    project(PROJECT_FILES.claudeSettings),
    project(PROJECT_FILES.settings),
    project(PROJECT_FILES.v1),
    project(PROJECT_FILES.claudeLocal, "local"),
    project(PROJECT_FILES.local, "local"),
  ];
}
