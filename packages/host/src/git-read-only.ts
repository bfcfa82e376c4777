/**
 * The git commands the engine may run on the user's repository. Its config is the project's
 * to write (includes and all), and no `-c` setting can neutralise a filter, textconv or merge
 * driver, which are named per driver; so on the user's repository the engine runs only
 * commands that never hand file content to a driver: reading refs, config and the index's
 * list of paths, never comparing a file's content with the index (a racily clean entry is
 * hashed through the clean filter) nor printing a blob through filters or textconv.
 * Everything else runs against a repository the engine made (see `EngineRepository`).
 */

/** Why `args` (subcommand first) may not run on the user's repository, or null when it may. */
export function userRepositoryRefusal(args: readonly string[]): string | null {
  const [command, ...rest] = args;
  switch (command) {
    case "rev-parse":
    case "ls-tree":
    case "check-ignore":
      return null;
    case "ls-files":
      // `-m` compares content with the index (a clean filter may run); combined short flags too.
      return rest.some((a) => a === "--modified" || /^-[a-zA-Z]*m[a-zA-Z]*$/.test(a))
        ? "`ls-files -m` reads files through the repository's filters"
        : null;
    case "cat-file":
      return rest.some((a) => /^--(filters|textconv|path)(=|$)/.test(a))
        ? "`cat-file --filters/--textconv` runs the repository's drivers"
        : null;
    case "config": {
      const reads = rest.some((a) => /^(--get(-all|-regexp)?|--list|-l)$/.test(a));
      const writes = rest.some((a) =>
        /^(--(add|unset|unset-all|replace-all|rename-section|remove-section|edit)|-e)$/.test(a),
      );
      return reads && !writes ? null : "only reading config is allowed";
    }
    default:
      return `\`git ${command ?? ""}\` is not a read-only command the engine runs on a project's repository`;
  }
}

/** The engine's own repository, as a script line names it (see {@link scriptRefusal}). */
const ENGINE_LINE = /GIT_DIR="\$ZENG_GIT_DIR"/;
/** `git` as a command word. */
const GIT_WORD = /(^|[\s;&|(`])git(?=\s|$)/g;

/**
 * Why a script that calls git as `git "$@" <command> ...` may not run on the user's
 * repository, or null. Every git call must take that form; each must pass
 * {@link userRepositoryRefusal}, except on a line that points `GIT_DIR` at
 * `"$ZENG_GIT_DIR"` when `engineLines` (the door sets that variable to the engine's own
 * repository). Pure; never throws.
 */
export function scriptRefusal(script: string, engineLines: boolean): string | null {
  // A line continued with a backslash is one command.
  for (const line of script.replace(/\\\n/g, " ").split("\n")) {
    for (const match of line.matchAll(GIT_WORD)) {
      const after = line.slice((match.index ?? 0) + match[0].length);
      const call = /^ "\$@" (\S+)(.*)$/.exec(after);
      if (!call) return `a git call not written \`git "$@" <command>\`: ${line.trim()}`;
      if (engineLines && ENGINE_LINE.test(line)) continue;
      const words = `${call[1]}${call[2] ?? ""}`
        .split(/\s+/)
        .filter((w) => w !== "")
        .map((w) => w.replace(/^['"]|['"]$/g, ""));
      const refusal = userRepositoryRefusal(words);
      if (refusal) return refusal;
    }
  }
  return null;
}
