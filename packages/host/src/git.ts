import { spawn } from "node:child_process";
import { HostError } from "./errors.js";

/** Options for one git invocation. */
export interface GitRunOptions {
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string>>;
  /** Written to git's stdin, then stdin is closed. */
  readonly input?: string | Uint8Array;
  /** Exit codes that count as success (default `[0]`). */
  readonly okCodes?: readonly number[];
}

/** What a git invocation printed. */
export interface GitOutput {
  readonly stdout: Buffer;
  readonly code: number;
}

/**
 * The environment git runs with for the host's own calls: the base environment without any
 * inherited `GIT_*` variable (so a caller's GIT_DIR or GIT_INDEX_FILE can never redirect us),
 * no system or global config, no prompts, and the given overrides on top.
 */
export function cleanGitEnv(
  base: Readonly<Record<string, string | undefined>>,
  overrides: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !key.startsWith("GIT_")) env[key] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    ...overrides,
  };
}

/** Runs git; rejects with a `HostError` (`git_failed`) carrying stderr when it fails. */
export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitOutput> {
  return run("git", args, `git ${args.join(" ")}`, options);
}

/**
 * Runs a POSIX `sh` script that calls git (several git steps in one spawn, which costs
 * less from a large Node process than a spawn per step); `args` are its `"$@"`. Rejects
 * with a `HostError` (`git_failed`) naming `label` and carrying stderr when it fails.
 */
export function runGitScript(
  label: string,
  script: string,
  args: readonly string[],
  options: GitRunOptions,
): Promise<GitOutput> {
  return run("sh", ["-c", script, "sh", ...args], label, options);
}

function run(
  program: string,
  args: readonly string[],
  label: string,
  options: GitRunOptions,
): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (cause) => {
      reject(new HostError("git_failed", `${label} could not start`, { cause }));
    });
    child.on("close", (code) => {
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
