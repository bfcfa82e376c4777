import { spawn } from "node:child_process";
import { HostError } from "./errors.js";
import { type SafeGitOptions, safeGitCommand } from "./git-command.js";

/** Options for one git invocation. */
export interface GitRunOptions {
  readonly cwd?: string;
  /** How the command line and environment are built (see {@link safeGitCommand}). */
  readonly git: SafeGitOptions;
  /** Written to git's stdin, then stdin is closed. */
  readonly input?: string | Uint8Array;
  /** Exit codes that count as success (default `[0]`). */
  readonly okCodes?: readonly number[];
  /**
   * Past this many milliseconds git (with any process it or the script started) is killed
   * and the call rejects: git blocks for ever opening a FIFO where it reads an ignore file,
   * and a project can hold one. Default {@link GIT_TIME_LIMIT_MS}.
   */
  readonly timeoutMs?: number;
}

/** How long an engine git call may take by default before it is killed (ten minutes). */
export const GIT_TIME_LIMIT_MS = 10 * 60 * 1000;

/** A git call killed at its time limit (see {@link GitRunOptions.timeoutMs}). */
export class GitTimeLimit extends HostError {
  constructor(label: string, limitMs: number) {
    const seconds = Math.round(limitMs / 100) / 10;
    super("git_failed", `${label} did not finish within ${seconds} s (killed)`);
  }
}

/** What a git invocation printed. */
export interface GitOutput {
  readonly stdout: Buffer;
  readonly code: number;
}

/**
 * Runs git as {@link safeGitCommand} builds it; rejects with a `HostError` (`git_failed`)
 * carrying stderr when it fails.
 */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitOutput> {
  const command = safeGitCommand(args, options.git);
  return run(command.program, command.args, `git ${args.join(" ")}`, command.env, options);
}

/**
 * Runs a POSIX `sh` script that calls git (several git steps in one spawn, which costs
 * less from a large Node process than a spawn per step). Its git calls must be written
 * `git "$@" <command>`: `"$@"` holds the global options {@link safeGitCommand} builds, and
 * the script runs in its environment. Rejects with a `HostError` (`git_failed`) naming
 * `label` and carrying stderr when it fails.
 */
export function runGitScript(
  label: string,
  script: string,
  options: GitRunOptions,
): Promise<GitOutput> {
  const command = safeGitCommand([], options.git);
  return run("sh", ["-c", script, "sh", ...command.args], label, command.env, options);
}

function run(
  program: string,
  args: readonly string[],
  label: string,
  env: Record<string, string>,
  options: GitRunOptions,
): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a time limit kills what a script started too.
    const child = spawn(program, args, {
      cwd: options.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const limit = options.timeoutMs ?? GIT_TIME_LIMIT_MS;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }, limit);
    timer.unref();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (cause) => {
      clearTimeout(timer);
      reject(new HostError("git_failed", `${label} could not start`, { cause }));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new GitTimeLimit(label, limit));
        return;
      }
      const exit = code ?? -1;
      if ((options.okCodes ?? [0]).includes(exit)) {
        resolve({ stdout: Buffer.concat(out), code: exit });
        return;
      }
      const stderr = Buffer.concat(err).toString("utf8").trim();
      reject(new HostError("git_failed", `${label} failed (${exit}): ${stderr}`));
    });
    child.stdin.on("error", () => {
      // git may exit before reading all of stdin; the exit code tells the story.
    });
    child.stdin.end(options.input ?? "");
  });
}

/** Splits NUL-separated git output into its entries (no empty trailing entry). */
export function splitNul(output: Buffer): string[] {
  const text = output.toString("utf8");
  if (text.length === 0) return [];
  const parts = text.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}
