import type { ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import type { ChildEnvironment } from "./child-env.js";
import type { ChildFolder } from "./child-folder.js";
import { signalGroup, spawnChild } from "./spawn-child.js";

/** A program to start, already wrapped by a sandbox when there is one. */
export interface ProcessSpec {
  readonly program: string;
  readonly args: readonly string[];
  readonly folder: ChildFolder;
  readonly env: ChildEnvironment;
  readonly extraEnv?: Readonly<Record<string, string | undefined>>;
}

/** How a process ended. */
export interface ProcessExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  readonly error?: string;
}

/** Options for {@link startProcessGroup}. */
export interface ProcessGroupOptions {
  readonly onOutput: (text: string) => void;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL (default 2,000 ms). */
  readonly killGraceMs?: number;
  /** How long to keep reading after the main process exits, for output of stragglers (default 250 ms). */
  readonly drainMs?: number;
}

/** A started process group. */
export interface ProcessGroup {
  readonly pid: number | undefined;
  readonly running: boolean;
  /**
   * SIGTERM to the whole group, SIGKILL after the grace period (also to members still there
   * once the leader exited); resolves when the leader has exited (as `cancelled`). The other
   * members die of the same signals, a moment later.
   */
  kill(): Promise<void>;
  readonly exited: Promise<ProcessExit>;
}

/**
 * Starts a program as the leader of its own process group (so killing the group kills every
 * descendant that stayed in it), stdin closed, stdout and stderr decoded as UTF-8 and passed
 * to `onOutput` as they arrive. Never throws: a start failure resolves `exited` with `error`.
 */
export function startProcessGroup(spec: ProcessSpec, options: ProcessGroupOptions): ProcessGroup {
  const started = Date.now();
  let timedOut = false;
  let cancelled = false;
  let running = true;
  let child: ChildProcess | null = null;
  let resolveExit: (exit: ProcessExit) => void = () => {};
  const exited = new Promise<ProcessExit>((resolve) => {
    resolveExit = resolve;
  });
  const timers: NodeJS.Timeout[] = [];
  const finish = (exit: Omit<ProcessExit, "timedOut" | "cancelled" | "durationMs">) => {
    if (!running) return;
    running = false;
    for (const timer of timers) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
    resolveExit({ ...exit, timedOut, cancelled, durationMs: Date.now() - started });
  };
  const killTree = () => {
    const pid = child?.pid;
    if (pid === undefined || !running) return;
    signalGroup(pid, "SIGTERM");
    // Not cleared when the leader exits: a member that ignores SIGTERM still gets SIGKILL.
    const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), options.killGraceMs ?? 2_000);
    timer.unref();
  };
  const onAbort = () => {
    cancelled = true;
    killTree();
  };
  if (options.signal?.aborted) {
    cancelled = true;
    finish({ exitCode: null, signal: null, error: "cancelled before start" });
    return { pid: undefined, running: false, kill: async () => {}, exited };
  }
  try {
    child = spawnChild({
      program: spec.program,
      args: spec.args,
      folder: spec.folder,
      env: spec.env,
      ...(spec.extraEnv ? { extraEnv: spec.extraEnv } : {}),
      stdio: ["ignore", "pipe", "pipe"],
    });
  } catch (cause) {
    finish({ exitCode: null, signal: null, error: String(cause) });
    return { pid: undefined, running: false, kill: async () => {}, exited };
  }
  wireChild(child, options, finish);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.timeoutMs !== undefined && options.timeoutMs > 0) {
    const timer = setTimeout(() => {
      timedOut = true;
      killTree();
    }, options.timeoutMs);
    timers.push(timer);
  }
  const proc = child;
  return {
    get pid() {
      return proc.pid;
    },
    get running() {
      return running;
    },
    kill: async () => {
      if (running) cancelled = true;
      killTree();
      await exited;
    },
    exited,
  };
}

function wireChild(
  child: ChildProcess,
  options: ProcessGroupOptions,
  finish: (exit: { exitCode: number | null; signal: string | null; error?: string }) => void,
): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    const decoder = new StringDecoder("utf8");
    stream.on("data", (chunk: Buffer) => options.onOutput(decoder.write(chunk)));
    stream.on("end", () => options.onOutput(decoder.end()));
    stream.on("error", () => {});
  }
  child.on("error", (error) => finish({ exitCode: null, signal: null, error: error.message }));
  child.on("exit", () => {
    // A straggler that kept our stdout open must not hold the result forever.
    const timer = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
    }, options.drainMs ?? 250);
    timer.unref();
    child.once("close", () => clearTimeout(timer));
  });
  child.on("close", (code, signal) => finish({ exitCode: code, signal }));
}
