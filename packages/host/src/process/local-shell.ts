import { statSync } from "node:fs";
import type { SandboxBackend, WrappedCommand } from "../sandbox/backend.js";
import { NestedGitGuard } from "../sandbox/nested-git.js";
import type { SandboxProfile } from "../sandbox/profile.js";
import type { BackgroundProcess, CommandRequest, CommandResult, Shell } from "../shell.js";
import { childEnvironment } from "./child-env.js";
import { type EnvPolicy, buildEnvironment } from "./env-policy.js";
import { OutputCollector } from "./output-collector.js";
import { type ProcessGroup, startProcessGroup } from "./process-group.js";
import { UnreadBuffer } from "./unread-buffer.js";

/** How a {@link createShell} shell runs commands. */
export interface ShellOptions {
  /** The shell program, run as `<program> -c <command>` (default `bash`). */
  readonly program?: string;
  /** Which variables commands inherit (default: everything but secret-looking names). */
  readonly env?: EnvPolicy;
  /** The environment the policy filters (default `process.env`). */
  readonly baseEnv?: Readonly<Record<string, string | undefined>>;
  /** Run every command inside this sandbox. */
  readonly sandbox?: { readonly backend: SandboxBackend; readonly profile: SandboxProfile };
  /** Between SIGTERM and SIGKILL when a command is killed (default 2,000 ms). */
  readonly killGraceMs?: number;
  /** Unread background output kept per process (default 1,000,000 characters; the oldest goes first). */
  readonly maxUnreadChars?: number;
  /**
   * Told when a sandboxed command created a `.git` folder or file (a repository whose hooks
   * and config came from inside the sandbox); the command's output gets the same note.
   */
  readonly onSandboxWarning?: (message: string) => void;
}

interface Started {
  readonly group: ProcessGroup;
  readonly result: Promise<CommandResult>;
}

function failed(error: string, cancelled = false): CommandResult {
  return {
    exitCode: null,
    signal: null,
    output: "",
    truncated: false,
    artifact: null,
    timedOut: false,
    cancelled,
    durationMs: 0,
    error,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A note for a sandboxed command that failed writing into `.git` (a commit, a checkout, a
 * fetch), which the sandbox keeps read-only; empty otherwise.
 */
function sandboxNote(output: string): string {
  if (!/\.git\b[^\n]*(Read-only file system|Permission denied)/.test(output)) return "";
  return "\n[sandbox: .git is read-only inside the sandbox, so git commands that write to it (commit, checkout, fetch, ...) fail here; run them outside the sandbox]";
}

/** The profile with every nested `.git` found kept read-only too. */
function withNestedGit(profile: SandboxProfile, gits: readonly string[]): SandboxProfile {
  if (gits.length === 0) return profile;
  return { ...profile, readOnlyInside: [...new Set([...profile.readOnlyInside, ...gits])] };
}

/** The warning for `.git` entries a sandboxed command created; empty for none. */
function createdNote(gits: readonly string[]): string {
  if (gits.length === 0) return "";
  return `sandbox: the command created ${gits.join(", ")}: a git repository made inside the sandbox, read-only to later commands; its hooks and config came from this command, so check them before running git there`;
}

/**
 * The local {@link Shell}: each command is `<program> -c <command>` in its own process group
 * (inside the sandbox when one is configured), so a timeout, a cancel or `kill()` ends the
 * whole tree (SIGTERM, then SIGKILL after the grace period). Never throws; a command that
 * cannot start resolves with `exitCode: null` and `error`.
 */
export function createShell(options: ShellOptions = {}): Shell {
  const program = options.program ?? "bash";
  const box = options.sandbox;
  const guard = box ? new NestedGitGuard(box.profile.gitScanRoots ?? []) : undefined;
  const start = (request: CommandRequest, onOutput: (text: string) => void): Started | string => {
    if (!isDirectory(request.cwd)) return `working folder does not exist: ${request.cwd}`;
    const env = commandEnvironment(options, request);
    const wrapped = wrapCommand(program, request, box, guard);
    if (typeof wrapped === "string") return wrapped;
    const collector = new OutputCollector(request.maxOutputChars);
    const group = startProcessGroup(
      {
        program: wrapped.program,
        args: wrapped.args,
        folder: {
          path: request.cwd,
          reason: options.sandbox ? "sandboxed" : "approvedCommand",
        },
        env,
      },
      {
        onOutput: (text) => {
          if (text.length === 0) return;
          collector.push(text);
          onOutput(text);
          request.onOutput?.(text);
        },
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
        ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
      },
    );
    const result = group.exited.then(async (exit): Promise<CommandResult> => {
      wrapped.release();
      const kept = await keptOutput(collector, request);
      const note = options.sandbox && exit.exitCode !== 0 ? sandboxNote(kept.output) : "";
      const created = createdNote(guard?.created() ?? []);
      if (created) options.onSandboxWarning?.(created);
      return { ...exit, ...kept, output: kept.output + note + (created ? `\n[${created}]` : "") };
    });
    return { group, result };
  };

  return {
    run: async (request) => {
      if (request.signal?.aborted) return failed("cancelled before start", true);
      const started = start(request, () => {});
      return typeof started === "string" ? failed(started) : started.result;
    },
    spawnBackground: (request) => {
      const unread = new UnreadBuffer(options.maxUnreadChars ?? 1_000_000);
      const started = start(request, (text) => unread.push(text));
      return backgroundHandle(started, unread);
    },
  };
}

/** A command's environment: the policy's own filter, then the door's (secrets stay out unless the policy names them). */
function commandEnvironment(options: ShellOptions, request: CommandRequest) {
  const policy = options.env ?? {};
  return childEnvironment(buildEnvironment(policy, options.baseEnv ?? process.env, request.env), {
    allow: [
      ...(policy.allow ?? []),
      ...Object.keys(policy.set ?? {}),
      ...Object.keys(request.env ?? {}),
    ],
  });
}

/** `<program> -c <command>`, inside the sandbox when there is one; a string when the sandbox cannot start. */
function wrapCommand(
  program: string,
  request: CommandRequest,
  box: ShellOptions["sandbox"],
  guard: NestedGitGuard | undefined,
): WrappedCommand | string {
  if (!box || !guard) return { program, args: ["-c", request.command], release: () => {} };
  try {
    return box.backend.wrap(
      { program, args: ["-c", request.command], cwd: request.cwd },
      withNestedGit(box.profile, guard.protect()),
    );
  } catch (error) {
    return `the sandbox could not start: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The output a command keeps (the whole of it as an artifact when it was long), with a note when storing failed. */
async function keptOutput(
  collector: OutputCollector,
  request: CommandRequest,
): Promise<Awaited<ReturnType<OutputCollector["finish"]>>> {
  try {
    return await collector.finish(request.artifacts, "command-output.txt");
  } catch (error) {
    const note = `\n[the whole output could not be stored: ${String(error)}]`;
    const kept = { ...(await collector.finish(undefined, "command-output.txt")), artifact: null };
    return { ...kept, output: kept.output + note };
  }
}

function backgroundHandle(started: Started | string, unread: UnreadBuffer): BackgroundProcess {
  if (typeof started === "string") {
    const result = failed(started);
    return {
      pid: undefined,
      readNewOutput: () => "",
      running: false,
      kill: async () => {},
      done: Promise.resolve(result),
    };
  }
  const { group, result } = started;
  return {
    get pid() {
      return group.pid;
    },
    readNewOutput: () => unread.take(),
    get running() {
      return group.running;
    },
    kill: async () => {
      await group.kill();
      await result;
    },
    done: result,
  };
}
