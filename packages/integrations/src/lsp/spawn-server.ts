import type { ChildProcess } from "node:child_process";
import type { ChildSpawner, SpawnedChild } from "../child-spawner.js";
import { LspError } from "./errors.js";
import type { LspServerSpec } from "./specs.js";

/** Rejects with an LspError (`timeout`) when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LspError("timeout", `${what} timed out after ${ms} ms`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Spawns a server in its own process group (the spawner's contract), so stopping it also
 * ends the helpers it starts (tsserver). Throws an LspError (`startFailed`).
 */
export function spawnServer(options: {
  readonly spec: LspServerSpec;
  readonly binary: string;
  readonly spawn: ChildSpawner;
}): SpawnedChild {
  try {
    return options.spawn({
      program: options.binary,
      args: options.spec.args,
      ...(options.spec.env ? { env: options.spec.env } : {}),
    });
  } catch (error) {
    throw new LspError("startFailed", `${options.spec.name}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** Resolves once the process spawned; rejects with an LspError (`startFailed`) when it cannot. */
export function spawnedOrFailed(child: ChildProcess, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", (e) =>
      reject(new LspError("startFailed", `${name}: ${e.message}`, { cause: e })),
    );
  });
}
