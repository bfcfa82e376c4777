import type { ArtifactRef, ArtifactSink } from "@z-engine/protocol";

/** One command for a {@link Shell}. */
export interface CommandRequest {
  /** The command line, run by the shell program (`bash -c` by default). */
  readonly command: string;
  /** Absolute working folder. */
  readonly cwd: string;
  /** Extra variables on top of the shell's environment policy; `undefined` removes one. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Kill the process tree after this long; the result says `timedOut`. */
  readonly timeoutMs?: number;
  /** Aborting kills the whole process tree; the result says `cancelled`. */
  readonly signal?: AbortSignal;
  /** Live output (stdout and stderr interleaved, decoded as UTF-8) as it arrives. */
  readonly onOutput?: (text: string) => void;
  /** Where the whole output goes when it is longer than `maxOutputChars`. */
  readonly artifacts?: ArtifactSink;
  /** How much output the result keeps inline (the start and the end); default 30,000 characters. */
  readonly maxOutputChars?: number;
  /**
   * The tool call that runs the command (Bash sets it), for a host's own shell that shows
   * each command with its call (an editor's terminal, ACP). The host's shells ignore it.
   */
  readonly toolCallId?: string;
}

/** How a command ended. Never thrown: a command that could not start has `exitCode` null and `error`. */
export interface CommandResult {
  /** Null when the process was killed or never started. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The output kept inline; when cut, the middle is replaced by a note naming the artifact. */
  readonly output: string;
  readonly truncated: boolean;
  /** The whole output, when it was cut and an artifact sink was given. */
  readonly artifact: ArtifactRef | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** Why the process could not start (missing program, sandbox failure). */
  readonly error?: string;
}

/** A process started in the background (a job). */
export interface BackgroundProcess {
  readonly pid: number | undefined;
  /** Output that arrived since the previous call (all of it on the first call). */
  readNewOutput(): string;
  /** True until the process exits. */
  readonly running: boolean;
  /** Kills the whole process tree; resolves once it has exited. */
  kill(): Promise<void>;
  /** Resolves when the process exits, however it ends. Never rejects. */
  readonly done: Promise<CommandResult>;
}

/**
 * Runs commands for the agent: each in its own process group (so a cancel kills the whole
 * tree), under the shell's environment policy and, when configured, inside the sandbox.
 * A host may supply its own implementation.
 */
export interface Shell {
  /** Runs a command to its end. Never rejects. */
  run(request: CommandRequest): Promise<CommandResult>;
  /** Starts a command in the background. */
  spawnBackground(request: CommandRequest): BackgroundProcess;
}

/**
 * An agent's persistent shell: runs commands in its current folder and keeps a `cd` made by
 * one command for the next. Made by `createShellSession` in this package.
 */
export interface ShellSession {
  /** The current working folder (absolute). */
  readonly cwd: string;
  /** Runs in `cwd`; afterwards `cwd` is the folder the command ended in, if it still exists. Never rejects. */
  run(request: Omit<CommandRequest, "cwd">): Promise<CommandResult>;
}
