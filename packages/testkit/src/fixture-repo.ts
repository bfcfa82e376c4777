import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, mkdir, writeFile, symlink, realpath } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A file's content: text, bytes, or text with a mode (e.g. 0o755 for a script). */
export type FixtureFile = string | Uint8Array | { content: string | Uint8Array; mode?: number };

/** A map of project-relative paths to contents; a `{ symlink }` entry makes a link. */
export type FixtureFiles = Record<string, FixtureFile | { symlink: string }>;

export interface FixtureRepoOptions {
  /** The files to write before the first commit. */
  files?: FixtureFiles;
  /** Make it a git repository (default true). */
  git?: boolean;
  /** Commit the files after writing them (default true when `git`). */
  commit?: boolean;
  /** A prefix for the temporary folder's name. */
  prefix?: string;
}

/** A temporary project folder, a git repository by default, removed by `dispose()`. */
export interface FixtureRepo {
  /** The real absolute path of the folder (symlinks such as /tmp resolved). */
  readonly root: string;
  /** Absolute path of a project-relative path. */
  path(relative: string): string;
  /** Writes (creating folders) a file relative to the root. */
  write(relative: string, content: FixtureFile): Promise<void>;
  /** Reads a file relative to the root as UTF-8. */
  read(relative: string): Promise<string>;
  /** Runs git in the root with a fixed identity and no user or system config; resolves to stdout. */
  git(...args: string[]): Promise<string>;
  /** Stages everything and commits; resolves to the new commit id. */
  commit(message?: string): Promise<string>;
  /** Removes the folder. Safe to call twice. */
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The environment git runs with in fixtures: no user or system config, a fixed identity and dates. */
export function fixtureGitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!key.startsWith("GIT_")) env[key] = value;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Fixture",
    GIT_AUTHOR_EMAIL: "fixture@example.invalid",
    GIT_COMMITTER_NAME: "Fixture",
    GIT_COMMITTER_EMAIL: "fixture@example.invalid",
  };
}

async function writeEntry(root: string, relative: string, entry: FixtureFiles[string]) {
  const target = join(root, relative);
  await mkdir(dirname(target), { recursive: true });
  if (typeof entry === "object" && !(entry instanceof Uint8Array) && "symlink" in entry) {
    await symlink(entry.symlink, target);
    return;
  }
  if (typeof entry === "string" || entry instanceof Uint8Array) {
    await writeFile(target, entry);
    return;
  }
  await writeFile(target, entry.content, entry.mode === undefined ? {} : { mode: entry.mode });
}

/**
 * Creates a temporary project from a file map: written, then (by default) `git init`ed
 * and committed on branch `main`. Rejects when git fails. Use with `await using` or call
 * `dispose()` in `afterEach`.
 */
export async function createFixtureRepo(options: FixtureRepoOptions = {}): Promise<FixtureRepo> {
  const root = await realpath(await mkdtemp(join(tmpdir(), options.prefix ?? "zeng-fixture-")));
  const env = fixtureGitEnv();
  const git = async (...args: string[]) =>
    (await run("git", args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  for (const [relative, entry] of Object.entries(options.files ?? {})) {
    await writeEntry(root, relative, entry);
  }
  const useGit = options.git ?? true;
  const commit = async (message = "fixture") => {
    await git("add", "-A");
    await git("commit", "-q", "--allow-empty", "--no-verify", "-m", message);
    return (await git("rev-parse", "HEAD")).trim();
  };
  if (useGit) {
    await git("init", "-q", "-b", "main");
    if (options.commit ?? true) await commit("initial");
  }
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await rm(root, { recursive: true, force: true });
  };
  return {
    root,
    path: (relative) => join(root, relative),
    write: (relative, content) => writeEntry(root, relative, content),
    read: (relative) => readFile(join(root, relative), "utf8"),
    git,
    commit,
    dispose,
    [Symbol.asyncDispose]: dispose,
  };
}
