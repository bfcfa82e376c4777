/**
 * The one place that builds a git command line for the engine. A project is untrusted
 * until the user says otherwise, and its `.git/config`, `.gitattributes` and any
 * repository git discovers in or above it are the project's to write; so every git
 * process the engine starts runs with settings that no repository can change, and that
 * keep git from starting any program a repository names.
 */

/**
 * `-c` settings given on every engine git call. Command-line settings outrank every
 * config file (repository, `include.path`/`includeIf` targets, user and system), and
 * `safe.bareRepository` is only honoured from protected config, which the command line is.
 */
export const GIT_NEUTRAL_CONFIG: readonly string[] = [
  // A bare repository found by discovery (say one planted in a cloned project, with
  // `core.worktree=..`) is refused; the host's own shadow repository is named by GIT_DIR.
  "safe.bareRepository=explicit",
  // Programs git would start on its own while reading the work tree or the index.
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.hooksPath=/dev/null",
  // Programs for output, prompts and remotes. An empty askPass means "no helper" (it also
  // shadows SSH_ASKPASS); an empty credential.helper clears the list; no transport at all.
  "core.pager=cat",
  "core.askPass=",
  "credential.helper=",
  "core.sshCommand=false",
  "protocol.allow=never",
  "diff.external=",
  "submodule.recurse=false",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "gc.auto=0",
  "maintenance.auto=false",
];

/** Environment git always gets: no system or user config file, no prompt, no optional locks. */
const FIXED_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_ATTR_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_OPTIONAL_LOCKS: "0",
  GIT_NO_REPLACE_OBJECTS: "1",
};

/** Options for {@link safeGitCommand}. */
export interface SafeGitOptions {
  /** The environment to start from (default `process.env`); every `GIT_*` variable in it is dropped. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Variables set on top, after the drop (the host's shadow repository sets `GIT_DIR` here). */
  readonly set?: Readonly<Record<string, string>>;
  /**
   * Read the user's own config file (`~/.gitconfig` or `$XDG_CONFIG_HOME/git/config`), say
   * for `core.excludesFile`; default false. The neutral settings still win over it.
   */
  readonly userConfig?: boolean;
  /** More `key=value` settings for this call; they cannot override the neutral ones. */
  readonly config?: readonly string[];
}

/** A git command line: spawn `program` with `args` and exactly `env`. */
export interface SafeGitCommand {
  readonly program: "git";
  readonly args: string[];
  readonly env: Record<string, string>;
}

/**
 * Builds a git invocation that no repository can make run a program: `--no-pager`, the
 * caller's settings, then {@link GIT_NEUTRAL_CONFIG} (last, so they win), then `args`; an
 * environment without any inherited `GIT_*` variable (GIT_DIR, GIT_CONFIG_*, GIT_EXEC_PATH,
 * GIT_SSH_COMMAND, ...), without system or user config (unless `userConfig`), prompts or
 * optional locks, and with `set` on top. With `args` empty the result's `args` are the
 * global options alone, for a script that calls `git "$@" <command>`. Pure; never throws.
 */
export function safeGitCommand(
  args: readonly string[],
  options: SafeGitOptions = {},
): SafeGitCommand {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? process.env)) {
    if (value !== undefined && !key.toUpperCase().startsWith("GIT_")) env[key] = value;
  }
  Object.assign(env, FIXED_ENV, options.set);
  if (options.userConfig) delete env.GIT_CONFIG_GLOBAL;
  const config = [...(options.config ?? []), ...GIT_NEUTRAL_CONFIG].flatMap((pair) => ["-c", pair]);
  return { program: "git", args: ["--no-pager", ...config, ...args], env };
}
