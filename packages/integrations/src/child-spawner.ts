import type { ChildProcessWithoutNullStreams } from "node:child_process";

/** A program an integration starts: an MCP stdio server or a language server. */
export interface ChildSpawnRequest {
  readonly program: string;
  readonly args: readonly string[];
  /** The entry's own variables, set over the environment the spawner starts from. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Starts a child for an integration, injected by the caller: this package cannot reach the
 * engine's child-process door (host's `spawnChild`), so the engine hands it a spawner that
 * chose the working folder and the scrubbed environment already. Contract: stdin, stdout
 * and stderr are pipes, and the child leads a process group of its own (the integration
 * stops the whole group with `process.kill(-pid)`). A program that cannot start reports it
 * through the child's `error` event; the spawner may also throw.
 */
export type ChildSpawner = (request: ChildSpawnRequest) => ChildProcessWithoutNullStreams;

/** Sends `signal` to the group `pid` leads; false when it is gone. Never throws. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
