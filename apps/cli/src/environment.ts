import type { Env } from "@z-engine/config";
import { isSecretVariable } from "@z-engine/engine";

/**
 * Takes the engine's environment out of `source` (the CLI passes `process.env`): returns a
 * copy with everything, and deletes the secret variables (engine's `isSecretVariable`: the
 * provider keys and known tokens) from `source`, so that no code of this process reads them
 * later. The engine keeps them in the copy and gives child processes an environment
 * without them. The kernel's copy of the environment the process started with
 * (`/proc/PID/environ`) is not changed by this.
 */
export function takeEnvironment(source: Record<string, string | undefined>): Env {
  const env: Env = { ...source };
  for (const name of Object.keys(source)) if (isSecretVariable(name)) delete source[name];
  return env;
}
