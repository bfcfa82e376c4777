import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** An environment: variable names to values, as `process.env` holds them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The folders Z Engine reads and writes outside a project. */
export interface Paths {
  /** The user's home folder (`$HOME`, else the OS's answer). */
  readonly home: string;
  /** User settings.toml, AGENTS.md, the v1 config.toml. */
  readonly configDir: string;
  /** sessions/, checkpoints/, trust.json, auth.json, the catalog cache. */
  readonly dataDir: string;
  /** `<configDir>/settings.toml`. */
  readonly userSettingsFile: string;
  /** `<dataDir>/trust.json`. */
  readonly trustFile: string;
}

function set(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/** XDG base folders must be absolute; a relative one is ignored, as the XDG spec says. */
function xdg(value: string | undefined): string | undefined {
  const v = set(value);
  return v !== undefined && isAbsolute(v) ? v : undefined;
}

/**
 * Computes the config and data folders from an environment (design.md §4): config is
 * `$ZENGINE_CONFIG_HOME`, else `$XDG_CONFIG_HOME/z-engine`, else `~/.config/z-engine`; data
 * is `$ZENGINE_HOME`, else `$XDG_DATA_HOME/z-engine`, else `~/.local/share/z-engine`.
 * Empty variables count as unset; a relative `ZENGINE_*` folder is resolved against the
 * working directory. Pure apart from that: creates nothing, never throws.
 */
export function resolvePaths(env: Env): Paths {
  const home = set(env.HOME) ?? homedir();
  const zConfig = set(env.ZENGINE_CONFIG_HOME);
  const zData = set(env.ZENGINE_HOME);
  const xdgConfig = xdg(env.XDG_CONFIG_HOME);
  const xdgData = xdg(env.XDG_DATA_HOME);
  const configDir = zConfig
    ? resolve(zConfig)
    : xdgConfig
      ? join(xdgConfig, "z-engine")
      : join(home, ".config", "z-engine");
  const dataDir = zData
    ? resolve(zData)
    : xdgData
      ? join(xdgData, "z-engine")
      : join(home, ".local", "share", "z-engine");
  return {
    home,
    configDir,
    dataDir,
    userSettingsFile: join(configDir, "settings.toml"),
    trustFile: join(dataDir, "trust.json"),
  };
}
