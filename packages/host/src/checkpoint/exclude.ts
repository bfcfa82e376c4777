import { join } from "node:path";
import { runGit, runGitScript, splitNul } from "../git.js";
import { readRegularText } from "../repo-local.js";
import type { GitLimits } from "./shadow-repo.js";

/**
 * Drops an excludes file that is not a regular file: the repository's own config may name
 * one, and git blocks for ever reading a FIFO.
 */
export const REGULAR_EXCLUDES = `if [ -n "$excludes" ] && [ ! -f "$excludes" ]; then excludes=; fi`;

/**
 * Prints the user's `core.excludesFile` (an empty line when unset or not a regular file;
 * `config` answers outside a repository too), then, when the folder is in a repository git
 * accepts, `repo`, its top level and its common git folder, one a line.
 */
const USER_REPO_SCRIPT = `excludes=$(git "$@" config --path --get core.excludesFile)
${REGULAR_EXCLUDES}
printf '%s\\n' "$excludes"
where=$(git "$@" rev-parse --path-format=absolute --show-toplevel --git-common-dir 2>/dev/null) || exit 0
printf 'repo\\n%s\\n' "$where"
`;

/** Always left out of snapshots (`.git` folders git leaves out by itself). */
export const BASE_EXCLUDES: readonly string[] = ["/.z-engine/worktrees/"];

/** What the user's repository says about the project, read once. */
export interface UserRepoInfo {
  /** The repository's common git folder (holds `info/exclude`), when the project is in one. */
  readonly commonDir: string | null;
  /** True when the project is the repository's top level (its ignore files then apply as is). */
  readonly atTopLevel: boolean;
  /** The user's `core.excludesFile`, when set. */
  readonly excludesFile: string | null;
}

/** Escapes a project-relative path into an anchored gitignore pattern that matches it only. */
export function literalPattern(path: string): string {
  const escaped = path.replace(/[\\*?[\]!#]/g, "\\$&").replace(/ $/, "\\ ");
  return `/${escaped}`;
}

/**
 * Reads, never writes, the user's repository: where it is and its personal excludes file.
 * Git runs neutralised (`safeGitCommand`) but reads the user's own config (to see
 * `core.excludesFile`). Resolves to all-null for a folder that is not in a repository (or
 * one git refuses, such as a bare repository found by discovery).
 */
export async function readUserRepo(
  projectRoot: string,
  base: Readonly<Record<string, string | undefined>>,
  limits: GitLimits = {},
): Promise<UserRepoInfo> {
  const none = { commonDir: null, atTopLevel: true, excludesFile: null };
  try {
    // One spawn for both (issue 18): a large Node process pays for each spawn.
    const out = await runGitScript("read the user repository", USER_REPO_SCRIPT, {
      repo: { kind: "user", folder: projectRoot },
      env: base,
      userConfig: true,
      ...limits,
    });
    return parseUserRepo(out.stdout.toString("utf8").split("\n"), projectRoot);
  } catch {
    return none;
  }
}

/** The {@link UserRepoInfo} in the first lines {@link USER_REPO_SCRIPT} prints. */
export function parseUserRepo(lines: readonly string[], projectRoot: string): UserRepoInfo {
  // Outside a repository the user's excludes file is not applied either.
  if (lines[1] !== "repo") return { commonDir: null, atTopLevel: true, excludesFile: null };
  const value = lines[0]?.trim() ?? "";
  const excludesFile = value.length > 0 ? value : null;
  return { commonDir: lines[3] ?? null, atTopLevel: lines[2] === projectRoot, excludesFile };
}

/**
 * The shadow repository's `info/exclude` for a project that is its repository's top level
 * (`userExclude`: the text of that repository's `info/exclude`, empty when it has none) or
 * in no repository (null): the base excludes, then the user's.
 */
export function excludeText(userExclude: string | null): string {
  return `${[...BASE_EXCLUDES, ...(userExclude === null ? [] : [userExclude])].join("\n")}\n`;
}

/**
 * The shadow repository's `info/exclude`: {@link excludeText} when the project is the
 * repository's top level or in none, or else (a project in a subfolder, where ignore files
 * above it would not apply) the base excludes and the exact list of paths the user's
 * repository ignores under the project.
 */
export async function buildExcludeText(
  projectRoot: string,
  repo: UserRepoInfo,
  base: Readonly<Record<string, string | undefined>>,
  limits: GitLimits = {},
): Promise<string> {
  if (!repo.commonDir) return excludeText(null);
  if (repo.atTopLevel) {
    // Synchronous: a small file, read on the first tool's path (see ShadowRepo.writeInfo).
    // A regular file only: a FIFO or a device planted there would block or never end.
    const file = join(repo.commonDir, "info", "exclude");
    return excludeText(readRegularText(file, Number.POSITIVE_INFINITY) ?? "");
  }
  const out = await runGit(["ls-files", "-z", "-o", "-i", "--exclude-standard", "--directory"], {
    repo: { kind: "user", folder: projectRoot },
    env: base,
    ...limits,
  });
  const lines = [...BASE_EXCLUDES];
  for (const path of splitNul(out.stdout)) lines.push(literalPattern(path.replace(/\/$/, "")));
  return `${lines.join("\n")}\n`;
}
