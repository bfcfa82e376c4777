import { spawn } from "node:child_process";
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import { type EngineRepository, engineRepositoryRefusal } from "./engine-repository.js";
import { HostError } from "./errors.js";
import { safeGitCommand } from "./git-command.js";
import { scriptRefusal, userRepositoryRefusal } from "./git-read-only.js";
import { discoverGitRepository } from "./git-repository.js";

/**
 * The git door: every git process the engine starts goes through {@link runGit} or
 * {@link runGitScript} (`checks/git-door.test.ts` fails on any other). Each call names its
 * repository: an {@link EngineRepository} (any command, explicit `GIT_DIR`), or the user's
 * repository found from a folder ({@link UserRepository}: read-only commands only, with
 * `GIT_DIR` and `GIT_WORK_TREE` set to what the engine found in process). Every call is built
 * by `safeGitCommand`: no pager, fsmonitor, hooks, external diff, credential helper, askpass,
 * transport or system and user config, and no inherited `GIT_*` variable.
 */

/** The user's repository, as found from `folder` (a project, or a folder of it). */
export interface UserRepository {
  readonly kind: "user";
  readonly folder: string;
}

/** The repository a git call works on. */
export type GitRepository = EngineRepository | UserRepository;

/** Options for one git invocation. */
export interface GitRunOptions {
  readonly repo: GitRepository;
  /** The environment to start from (default `process.env`); every `GIT_*` variable in it is dropped. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Variables set on top: the author and committer identity (`GIT_AUTHOR_*`,
   * `GIT_COMMITTER_*`) and a script's own variables; no other `GIT_*` and none of the
   * `ZENG_GIT_DIR`, `ZENG_WORK_TREE`, `ZENG_INDEX` the door sets (a `HostError` otherwise).
   */
  readonly set?: Readonly<Record<string, string>>;
  /** Read the user's own config file (for `core.excludesFile`); default false. */
  readonly userConfig?: boolean;
  /** More `key=value` settings; they cannot override the neutral ones. */
  readonly config?: readonly string[];
  /** Engine repositories only: where git runs (default the work tree, else the git folder). */
  readonly cwd?: string;
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
  /** When it aborts, git (with what the script started) is killed and the call rejects. */
  readonly signal?: AbortSignal;
}

/** How long an engine git call may take by default before it is killed (ten minutes). */
export const GIT_TIME_LIMIT_MS = 10 * 60 * 1000;

/** A git call killed at its time limit (see {@link GitRunOptions.timeoutMs}). */
export class GitTimeLimit extends HostError {
  constructor(label: string, limitMs: number) {
    const seconds = Math.round(limitMs / 100) / 10;
    super("gitFailed", `${label} did not finish within ${seconds} s (killed)`);
  }
}

/** What a git invocation printed. */
export interface GitOutput {
  readonly stdout: Buffer;
  readonly code: number;
}

const IDENTITY = /^GIT_(AUTHOR|COMMITTER)_(NAME|EMAIL|DATE)$/;
const GIT_NAMES = { dir: "GIT_DIR", workTree: "GIT_WORK_TREE", index: "GIT_INDEX_FILE" };
const SCRIPT_NAMES = { dir: "ZENG_GIT_DIR", workTree: "ZENG_WORK_TREE", index: "ZENG_INDEX" };

/** The repository variables and working folder of a call; throws `gitRefused` when it may not run. */
function target(
  options: GitRunOptions,
  engine: EngineRepository | undefined,
): { cwd: string; set: Record<string, string> } {
  for (const key of Object.keys(options.set ?? {})) {
    if (
      (key.toUpperCase().startsWith("GIT_") && !IDENTITY.test(key)) ||
      Object.values(SCRIPT_NAMES).includes(key)
    )
      throw new HostError("gitRefused", `${key} is the git door's to set`);
  }
  const set: Record<string, string> = { ...options.set };
  if (engine) Object.assign(set, engineVariables(engine, SCRIPT_NAMES));
  const repo = options.repo;
  if (repo.kind === "engine") {
    Object.assign(set, engineVariables(repo, GIT_NAMES));
    return { cwd: options.cwd ?? repo.workTree ?? repo.gitDir, set };
  }
  if (options.cwd !== undefined && options.cwd !== repo.folder)
    throw new HostError("gitRefused", "a call on the user's repository runs in its folder");
  const real = realFolder(repo.folder);
  const found = discoverGitRepository(real, options.env ?? process.env);
  if (found === "blocking")
    throw new HostError(
      "gitRefused",
      `the repository at ${repo.folder} has a git file that is no regular file (a FIFO would hang git)`,
    );
  if (typeof found !== "string") {
    set.GIT_DIR = found.gitDir;
    set.GIT_WORK_TREE = found.workTree;
  } else {
    // No repository the engine accepts: git may not find one above the folder either.
    set.GIT_CEILING_DIRECTORIES = dirname(real);
  }
  return { cwd: repo.folder, set };
}

/** The folder's real path (git's discovery walks up from the real working folder). */
function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/** An engine repository's folders under `names`; throws `gitRefused` when its config is not the engine's. */
function engineVariables(repo: EngineRepository, names: typeof GIT_NAMES): Record<string, string> {
  const refusal = engineRepositoryRefusal(repo.gitDir);
  if (refusal) throw new HostError("gitRefused", refusal);
  return {
    [names.dir]: repo.gitDir,
    ...(repo.workTree ? { [names.workTree]: repo.workTree } : {}),
    ...(repo.indexFile ? { [names.index]: repo.indexFile } : {}),
  };
}

function command(args: readonly string[], options: GitRunOptions, set: Record<string, string>) {
  return safeGitCommand(args, {
    ...(options.env ? { env: options.env } : {}),
    set,
    ...(options.userConfig ? { userConfig: true } : {}),
    ...(options.config ? { config: options.config } : {}),
  });
}

/**
 * Runs `git <args>` on `options.repo`. Rejects with a `HostError`: `gitRefused` when the
 * command may not run there (a command that is not read-only on the user's repository, an
 * engine repository whose config the engine did not write, a user's repository whose `HEAD`,
 * `index`, `config` or another fixed git file is a FIFO or a device), `gitFailed` carrying stderr when
 * git fails or could not start, a {@link GitTimeLimit} past the time limit.
 */
export async function runGit(args: readonly string[], options: GitRunOptions): Promise<GitOutput> {
  const label = `git ${args.join(" ")}`;
  if (options.repo.kind === "user") {
    const refusal = userRepositoryRefusal(args);
    if (refusal) throw new HostError("gitRefused", `${label} refused: ${refusal}`);
  }
  const { cwd, set } = target(options, undefined);
  const built = command(args, options, set);
  return run(built.program, built.args, label, { ...options, cwd }, built.env);
}

/**
 * Runs a POSIX `sh` script that calls git (several git steps in one spawn, which costs
 * less from a large Node process than a spawn per step). Its git calls must be written
 * `git "$@" <command>`: `"$@"` holds the global options the door builds, and the script
 * runs in its environment. On the user's repository every call must be read-only, except
 * those on a line that sets `GIT_DIR="$ZENG_GIT_DIR"`: the door sets `ZENG_GIT_DIR`,
 * `ZENG_WORK_TREE` and `ZENG_INDEX` to `engine`'s when given. Rejects like {@link runGit},
 * naming `label`.
 */
export async function runGitScript(
  label: string,
  script: string,
  options: GitRunOptions & { readonly engine?: EngineRepository },
): Promise<GitOutput> {
  if (options.repo.kind === "user") {
    const refusal = scriptRefusal(script, options.engine !== undefined);
    if (refusal) throw new HostError("gitRefused", `${label} refused: ${refusal}`);
  }
  const { cwd, set } = target(options, options.engine);
  const built = command([], options, set);
  return run("sh", ["-c", script, "sh", ...built.args], label, { ...options, cwd }, built.env);
}

function run(
  program: string,
  args: readonly string[],
  label: string,
  options: GitRunOptions & { cwd: string },
  env: Record<string, string>,
): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new HostError("gitFailed", `${label} stopped`, { cause: options.signal.reason }));
      return;
    }
    // Its own process group, so a time limit kills what a script started too.
    const child = spawn(program, args, {
      cwd: options.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const limit = options.timeoutMs ?? GIT_TIME_LIMIT_MS;
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, limit);
    timer.unref();
    options.signal?.addEventListener("abort", kill, { once: true });
    const done = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", kill);
    };
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (cause) => {
      done();
      reject(new HostError("gitFailed", `${label} could not start`, { cause }));
    });
    child.on("close", (code) => {
      done();
      if (timedOut) {
        reject(new GitTimeLimit(label, limit));
        return;
      }
      if (options.signal?.aborted) {
        reject(new HostError("gitFailed", `${label} stopped`, { cause: options.signal.reason }));
        return;
      }
      const exit = code ?? -1;
      if ((options.okCodes ?? [0]).includes(exit)) {
        resolve({ stdout: Buffer.concat(out), code: exit });
        return;
      }
      const stderr = Buffer.concat(err).toString("utf8").trim();
      reject(new HostError("gitFailed", `${label} failed (${exit}): ${stderr}`));
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
