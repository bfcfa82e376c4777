import type { Env } from "@z-engine/config";
import { eraseInitialEnvironment, isSecretVariable } from "@z-engine/engine";

/**
 * Takes the engine's environment out of `source` (the CLI passes `process.env`): returns a
 * copy with everything, and deletes the secret variables (engine's `isSecretVariable`: the
 * provider keys and known tokens) from `source`, so that no code of this process reads them
 * later. The engine keeps them in the copy and gives child processes an environment
 * without them. When `source` is `process.env`, the kernel's copy of the environment the
 * process started with (`/proc/PID/environ`, which any process of the user can read) loses
 * them too (host's `eraseInitialEnvironment`, Linux): a child walking its parents finds no
 * key there.
 */
export function takeEnvironment(
  source: Record<string, string | undefined>,
  eraseInitial: boolean = source === process.env,
): Env {
  const env: Env = { ...source };
  const secrets = Object.keys(source).filter(isSecretVariable);
  if (eraseInitial) eraseInitialEnvironment(secrets, source);
  else for (const name of secrets) delete source[name];
  return env;
}
