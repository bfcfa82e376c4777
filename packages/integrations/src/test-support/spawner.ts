import { spawn } from "node:child_process";
import type { ChildSpawner } from "../child-spawner.js";

/**
 * A {@link ChildSpawner} for this package's tests: `env` (as given, not scrubbed) and the
 * entry's own variables, in `cwd`, three pipes, a process group of its own. The engine
 * injects host's door instead.
 */
export function testSpawner(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): ChildSpawner {
  return (request) => {
    const child = spawn(request.program, [...request.args], {
      cwd,
      env: { ...env, ...request.env },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const signalGroup = (signal: NodeJS.Signals) =>
      child.pid !== undefined && process.kill(-child.pid, signal);
    return {
      process: child,
      signalGroup: (signal) => {
        try {
          return signalGroup(signal);
        } catch {
          return false;
        }
      },
    };
  };
}
