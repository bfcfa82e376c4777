import { type Stats, lstatSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { type GitConfigValues, lastValue, parseGitConfig } from "./git-config-file.js";
import type { HashLength } from "./git-index.js";

/**
 * What the engine's git would find about a folder, read without spawning it (issue 18: a
 * spawn from a large Node process costs 10-30 ms, and the first tool waits for what these
 * reads feed). Only the plain cases are answered; anything else is null, so the caller
 * asks git and gets exactly git's answer.
 */
export interface LocalRepo {
  /** `<folder>/.git` when the folder is the top level of a repository; null when in none. */
  readonly gitDir: string | null;
  /** `core.excludesFile` as `git config --path --get` prints it; null when unset or empty. */
  readonly excludesFile: string | null;
  readonly hashLength: HashLength;
}

/** Config and ignore files larger than this are left to git. */
const MAX_TEXT = 1024 * 1024;

/**
 * A regular file's text (a link to one too, as git follows them), null when there is no
 * regular file there (or it cannot be read). Never opens a FIFO or a device: git would
 * block for ever on one. Throws `TooLarge` above `maxBytes`.
 */
export function readRegularText(file: string, maxBytes = MAX_TEXT): string | null {
  let info: Stats | undefined;
  try {
    info = statSync(file, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!info?.isFile()) return null;
  if (info.size > maxBytes) throw new TooLarge(file);
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** A file too large to read in process: the caller asks git. */
export class TooLarge extends Error {
  constructor(file: string) {
    super(`${file} is too large to read in process`);
  }
}

/** Git's folder for the user's own files: `$XDG_CONFIG_HOME/git`, else `~/.config/git`. */
function xdgGitDir(env: Readonly<Record<string, string | undefined>>): string | null {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg) return join(xdg, "git");
  return env.HOME ? join(env.HOME, ".config", "git") : null;
}

/** The excludes file git reads when `core.excludesFile` is not set (it does so even with no user config). */
export function defaultExcludesFile(
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  const dir = xdgGitDir(env);
  return dir ? join(dir, "ignore") : null;
}

/** A git folder as git's `is_git_directory` accepts it, in its plain form only. */
function isPlainGitDir(dir: string): "yes" | "no" | "unsure" {
  const head = lstatSync(join(dir, "HEAD"), { throwIfNoEntry: false });
  const objects = statSync(join(dir, "objects"), { throwIfNoEntry: false });
  const refs = statSync(join(dir, "refs"), { throwIfNoEntry: false });
  if (!head && !objects && !refs) return "no";
  if (!head?.isFile() || !objects?.isDirectory() || !refs?.isDirectory()) return "unsure";
  if (lstatSync(join(dir, "commondir"), { throwIfNoEntry: false })) return "unsure";
  const text = readRegularText(join(dir, "HEAD"), 4096) ?? "";
  return /^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\n?$/.test(text) ? "yes" : "unsure";
}

/** Git refuses a repository another user owns (unless `safe.directory` says otherwise). */
function ownedByUs(info: Stats): boolean {
  return typeof process.geteuid !== "function" || info.uid === process.geteuid();
}

/** True when no folder from `folder` up holds a `.git` or is a git folder itself. */
function noRepositoryAbove(folder: string): boolean {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (lstatSync(join(dir, ".git"), { throwIfNoEntry: false })) return false;
    if (isPlainGitDir(dir) !== "no") return false;
    if (dirname(dir) === dir) return true;
  }
}

/** The config files git reads, in order: the user's (when asked) then the repository's. */
function readConfigs(
  gitDir: string,
  env: Readonly<Record<string, string | undefined>>,
  userConfig: boolean,
): GitConfigValues[] | null {
  const files: string[] = [];
  if (userConfig) {
    const xdg = xdgGitDir(env);
    if (xdg) files.push(join(xdg, "config"));
    if (env.HOME) files.push(join(env.HOME, ".gitconfig"));
  }
  files.push(join(gitDir, "config"));
  const parsed: GitConfigValues[] = [];
  for (const file of files) {
    // Something that exists but is no regular file is git's to judge.
    if (lstatSync(file, { throwIfNoEntry: false }) && !statSync(file).isFile()) return null;
    const text = readRegularText(file);
    if (text === null) continue;
    const values = parseGitConfig(text);
    if (!values) return null;
    parsed.push(values);
  }
  return parsed;
}

/** `git config --path`'s expansion of a value, or null for a form left to git. */
function expandPath(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (value.startsWith("~/") && env.HOME) return join(env.HOME, value.slice(2));
  return isAbsolute(value) && !value.startsWith("%(") ? value : null;
}

/** The repository's settings the engine reads, or null when one is beyond the plain cases. */
function repoSettings(
  configs: readonly GitConfigValues[],
  env: Readonly<Record<string, string | undefined>>,
): { excludesFile: string | null; hashLength: HashLength } | null {
  const repoConfig = configs[configs.length - 1];
  // A moved work tree, a bare flag or a repository format git may refuse: git decides.
  if (lastValue(configs, "core.worktree") !== undefined) return null;
  // Also a repository whose ignores match without case or with composed names: git's
  // ignore matching differs there, and the walk matches bytes as they are.
  for (const key of ["core.bare", "core.ignorecase", "core.precomposeunicode"]) {
    const value = lastValue(configs, key);
    if (value !== undefined && value !== "false") return null;
  }
  const version = lastValue(repoConfig ? [repoConfig] : [], "core.repositoryformatversion");
  if (version !== undefined && version !== "0" && version !== "1") return null;
  let hashLength: HashLength = 20;
  for (const [key, values] of repoConfig ?? new Map()) {
    if (!key.startsWith("extensions.")) continue;
    if (key !== "extensions.objectformat" || version !== "1") return null;
    const format = values[values.length - 1];
    if (format === "sha256") hashLength = 32;
    else if (format !== "sha1") return null;
  }
  const excludes = lastValue(configs, "core.excludesfile");
  if (excludes === true) return null;
  if (excludes === undefined || excludes === "") return { excludesFile: null, hashLength };
  const excludesFile = expandPath(excludes, env);
  return excludesFile === null ? null : { excludesFile, hashLength };
}

/**
 * Reads what git would find about `folder` (a real path, no links in it): the repository
 * whose top level it is, or that it is in none; and the settings the engine reads. The
 * config git reads is the repository's, plus the user's own when `userConfig` (never the
 * system's: engine git runs without it). Null when git's answer could differ from a plain
 * reading (the folder is a subfolder of a repository, a linked work tree or a submodule, a
 * repository another user owns, config with includes or forms this reader does not take,
 * a worktree or format setting, ignores matched without case), so the caller asks git. Never
 * throws.
 */
export function readRepoLocally(
  folder: string,
  env: Readonly<Record<string, string | undefined>>,
  userConfig: boolean,
): LocalRepo | null {
  try {
    const dotGit = lstatSync(join(folder, ".git"), { throwIfNoEntry: false });
    if (!dotGit) {
      return noRepositoryAbove(folder)
        ? { gitDir: null, excludesFile: null, hashLength: 20 }
        : null;
    }
    const gitDir = join(folder, ".git");
    if (!dotGit.isDirectory() || isPlainGitDir(gitDir) !== "yes") return null;
    if (!ownedByUs(dotGit) || !ownedByUs(lstatSync(folder))) return null;
    const configs = readConfigs(gitDir, env, userConfig);
    const settings = configs && repoSettings(configs, env);
    return settings ? { gitDir, ...settings } : null;
  } catch {
    return null;
  }
}
