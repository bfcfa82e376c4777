import type { EffectiveSettings } from "@z-engine/config";
import {
  type ChildEnvironment,
  type CommandRequest,
  childEnvironment,
  type Shell,
} from "@z-engine/host";

/** The part of the settings that shapes the programs' environment: `[env]`. */
export type EnvSettings = Pick<EffectiveSettings, "env">;

/**
 * The environment of the programs the user and the model run in a session (hooks, stdio MCP
 * servers, language servers; shells get the same layer through {@link withSettingsEnv}): the
 * engine's scrubbed environment (`childEnv`) with the settings' `[env]` over it. `[env]`
 * variables are kept even when their names look secret (`GITHUB_TOKEN`): they are the user's
 * own values, or a trusted project's, never the engine's. With `exclude` (an untrusted
 * project), PATH-like lists lose relative entries and those inside the excluded folders. The
 * engine's own git door does not use this (it keeps its hardened environment). Pure.
 */
export function sessionChildEnv(
  childEnv: Readonly<Record<string, string>>,
  settings: EnvSettings,
  exclude?: readonly string[],
): ChildEnvironment {
  return childEnvironment(
    { ...childEnv, ...settings.env },
    { allow: Object.keys(settings.env), ...(exclude ? { exclude } : {}) },
  );
}

/**
 * `shell` with the settings' `[env]` added to each command, under the command's own variables:
 * the shell starts from the scrubbed environment, so a command sees what
 * {@link sessionChildEnv} gives (plus the shell's non-interactive defaults). Read at each
 * command, so a settings reload (trust, an edit) applies from the next one. With no `[env]`
 * the requests pass unchanged.
 */
export function withSettingsEnv(shell: Shell, settings: () => EnvSettings): Shell {
  const layered = (request: CommandRequest): CommandRequest => {
    const env = settings().env;
    if (Object.keys(env).length === 0) return request;
    return { ...request, env: { ...env, ...request.env } };
  };
  return {
    run: (request) => shell.run(layered(request)),
    spawnBackground: (request) => shell.spawnBackground(layered(request)),
  };
}
