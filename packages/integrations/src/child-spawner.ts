import type { ChildProcessWithoutNullStreams } from "node:child_process";

/** A program an integration starts: an MCP stdio server or a language server. */
export interface ChildSpawnRequest {
  readonly program: string;
  readonly args: readonly string[];
  /** The entry's own variables, set over the environment the spawner starts from. */
  readonly env?: Readonly<Record<string, string>>;
}

/** A started child, and how to signal the whole process group it leads. */
export interface SpawnedChild {
  readonly process: ChildProcessWithoutNullStreams;
  /** Sends `signal` to the child's process group; false when the group is gone. Never throws. */
  signalGroup(signal: NodeJS.Signals): boolean;
}

/**
 * Starts a child for an integration, injected by the caller: this package cannot reach the
 * engine's child-process door (host's `spawnChild`), so the engine hands it a spawner that
 * chose the working folder and the scrubbed environment already. Contract: stdin, stdout
 * and stderr are pipes, and the child leads a process group of its own, which
 * `signalGroup` reaches (the integration stops the whole group with it). A program that
 * cannot start reports it through the child's `error` event; the spawner may also throw.
 */
export type ChildSpawner = (request: ChildSpawnRequest) => SpawnedChild;
