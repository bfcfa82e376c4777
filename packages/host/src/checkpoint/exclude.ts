import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { runGit, splitNul } from "../git.js";

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
): Promise<UserRepoInfo> {
  const git = { env: base, userConfig: true };
  try {
    // Both at once: `config` answers outside a repository too, and is then not used.
    const [out, excludes] = await Promise.all([
      runGit(["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir"], {
        cwd: projectRoot,
        git,
      }),
      runGit(["config", "--path", "--get", "core.excludesFile"], {
        cwd: projectRoot,
        git,
        okCodes: [0, 1],
      }),
    ]);
    const [top, common] = out.stdout.toString("utf8").trim().split("\n");
    const excludesFile = excludes.stdout.toString("utf8").trim();
    return {
      commonDir: common ?? null,
      atTopLevel: top === projectRoot,
      excludesFile: excludesFile.length > 0 ? excludesFile : null,
    };
  } catch {
    return { commonDir: null, atTopLevel: true, excludesFile: null };
  }
}

/**
 * The shadow repository's `info/exclude`: the base excludes, plus the user's
 * `info/exclude` when the project is the repository's top level, or else (a project in a
 * subfolder, where ignore files above it would not apply) the exact list of paths the user's
 * repository ignores under the project.
 */
export async function buildExcludeText(
  projectRoot: string,
  repo: UserRepoInfo,
  base: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  const lines = [...BASE_EXCLUDES];
  if (repo.commonDir && repo.atTopLevel) {
    const userExclude = await readFile(join(repo.commonDir, "info", "exclude"), "utf8").catch(
      () => "",
    );
    lines.push(userExclude);
  } else if (repo.commonDir) {
    const out = await runGit(["ls-files", "-z", "-o", "-i", "--exclude-standard", "--directory"], {
      cwd: projectRoot,
      git: { env: base },
    });
    for (const path of splitNul(out.stdout)) lines.push(literalPattern(path.replace(/\/$/, "")));
  }
  return `${lines.join("\n")}\n`;
}
