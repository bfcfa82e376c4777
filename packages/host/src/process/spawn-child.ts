import {
  type ChildProcess,
  type ChildProcessWithoutNullStreams,
  type StdioOptions,
  spawn,
} from "node:child_process";
import { type ChildEnvironment, childVariables } from "./child-env.js";
import { type ChildFolder, checkChildFolder } from "./child-folder.js";

/** One child process to start through {@link spawnChild}. */
export interface ChildRequest {
  readonly program: string;
  readonly args: readonly string[];
  /** Where it starts, and why it may (see {@link ChildFolder}). */
  readonly folder: ChildFolder;
  /** The scrubbed environment it starts from. */
  readonly env: ChildEnvironment;
  /** The caller's own variables over it (`undefined` removes one); not filtered. */
  readonly extraEnv?: Readonly<Record<string, string | undefined>>;
  /** Default: stdin, stdout and stderr piped. */
  readonly stdio?: StdioOptions;
  /**
   * The leader of a process group of its own (default true), so that killing the group
   * ({@link signalGroup}) ends everything it started that stayed in the group.
   */
  readonly group?: boolean;
  /** Aborting kills the child (Node's `signal` option: SIGTERM to the leader only). */
  readonly signal?: AbortSignal;
}

/**
 * The child-process door: every process the engine starts (shells, hooks, checks, MCP and
 * language servers, ripgrep, a browser) is started here, from a scrubbed environment and a
 * folder its caller justified. Returns Node's `ChildProcess`; a program that cannot start
 * reports it through the child's `error` event, as `spawn` does. Throws a `HostError`
 * (`spawnRefused`) for a relative folder or a `neutral` one that is not the engine's.
 */
export function spawnChild(
  request: ChildRequest & { readonly stdio?: undefined },
): ChildProcessWithoutNullStreams;
export function spawnChild(request: ChildRequest): ChildProcess;
export function spawnChild(request: ChildRequest): ChildProcess {
  checkChildFolder(request.folder);
  return spawn(request.program, [...request.args], {
    cwd: request.folder.path,
    env: childVariables(request.env, request.extraEnv, request.folder.path),
    stdio: request.stdio ?? ["pipe", "pipe", "pipe"],
    detached: request.group ?? true,
    ...(request.signal ? { signal: request.signal } : {}),
  });
}

/**
 * Sends `signal` to the process group led by `pid` (a child {@link spawnChild} started as a
 * group leader). False when the group is gone. Never throws.
 */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}
