import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { runGitScript } from "../git.js";
import { defaultExcludesFile, readRegularText, readRepoLocally } from "../repo-local.js";
import {
  BASE_EXCLUDES,
  REGULAR_EXCLUDES,
  type UserRepoInfo,
  excludeText,
  parseUserRepo,
} from "./exclude.js";
import { IN_PROCESS_LIMITS } from "./first-commit.js";
import { walkProject } from "./project-walk.js";
import type { ShadowRepo } from "./shadow-repo.js";

/**
 * What `readUserRepo`'s script prints (the user's `core.excludesFile`, then `repo`, the top
 * level and the common git folder when in a repository), then, unless the project is a
 * subfolder of its repository (whose excludes need the user's repository listed, see
 * `buildExcludeText`), writes the shadow's `info/exclude` as `buildExcludeText` makes it and
 * prints a `listed` line and the shadow's `ls-files -t -m -d -o` as `planStage` runs it. The
 * shadow's git call gets its own environment (no user config) and settings on top of the
 * neutral ones in `"$@"`.
 */
const SCRIPT = `excludes=$(git "$@" config --path --get core.excludesFile)
${REGULAR_EXCLUDES}
printf '%s\n' "$excludes"
exclude="$ZENG_GIT_DIR/info/exclude"
if where=$(git "$@" rev-parse --path-format=absolute --show-toplevel --git-common-dir 2>/dev/null); then
  printf 'repo\n%s\n' "$where"
  top=\${where%%
*}
  [ "$top" = "$ZENG_WORK_TREE" ] || exit 0
  common=\${where#*
}
  user="$common/info/exclude"
  { printf '%s\n' "$ZENG_BASE_EXCLUDES"; if [ -f "$user" ]; then cat "$user" 2>/dev/null; fi; printf '\n'; } > "$exclude"
else
  excludes=
  printf '%s\n' "$ZENG_BASE_EXCLUDES" > "$exclude"
fi
printf 'listed\n'
set -- "$@" -c 'safe.directory=*' -c core.splitIndex=true
if [ -n "$excludes" ]; then set -- "$@" -c "core.excludesFile=$excludes"; fi
GIT_CONFIG_GLOBAL=/dev/null GIT_DIR="$ZENG_GIT_DIR" GIT_WORK_TREE="$ZENG_WORK_TREE" \
  GIT_INDEX_FILE="$ZENG_INDEX" git "$@" ls-files -z -t -m -d -o --exclude-standard
`;

/** What {@link readUserRepoAndList} or {@link listFirstLocally} found. */
export interface FirstListing {
  readonly repo: UserRepoInfo;
  /** The shadow's `ls-files -t -m -d -o` output, or null when it was not taken. */
  readonly listing: Buffer | null;
  /** Whether the script changed the shadow's `info/exclude`. */
  readonly ignoresChanged: boolean;
}

function readExclude(shadow: ShadowRepo): string | null {
  try {
    return readFileSync(join(shadow.gitDir, "info", "exclude"), "utf8");
  } catch {
    return null;
  }
}

/**
 * The first snapshot's start in one spawn instead of two (issue 18: a large Node process
 * pays for each, and the first mutating tool waits for the snapshot): reads the user's
 * repository as `readUserRepo` does and, when the project is its top level or in none, writes
 * the shadow's excludes and lists its files. The shadow repository must exist. Rejects with
 * a `HostError` when the script fails (the caller then takes the usual steps).
 */
export async function readUserRepoAndList(
  shadow: ShadowRepo,
  env: Readonly<Record<string, string | undefined>>,
): Promise<FirstListing> {
  const before = readExclude(shadow);
  const out = await runGitScript("read the user repository and list the files", SCRIPT, {
    repo: { kind: "user", folder: shadow.projectRoot },
    engine: shadow.repository(),
    env,
    userConfig: true,
    set: { ZENG_BASE_EXCLUDES: BASE_EXCLUDES.join("\n") },
    ...shadow.limits,
  });
  const lines = out.stdout.toString("latin1").split("\n", 5);
  const repo = parseUserRepo(out.stdout.toString("utf8").split("\n", 4), shadow.projectRoot);
  const header = repo.commonDir ? 4 : 1;
  if (lines[header] !== "listed") return { repo, listing: null, ignoresChanged: false };
  // The listing starts after the header's lines and the `listed` line.
  let start = 0;
  for (let i = 0; i <= header; i++) start = out.stdout.indexOf(0x0a, start) + 1;
  return {
    repo,
    listing: out.stdout.subarray(start),
    ignoresChanged: readExclude(shadow) !== before,
  };
}

/** Folders a first listing in process reads at most (each a `readdir`). */
const MAX_WALKED_DIRS = 256;

/**
 * The first snapshot's start without any spawn, for a shadow repository that has no index
 * yet (issue 18): reads the user's repository as {@link readUserRepoAndList}'s script does
 * (`readRepoLocally`), writes the shadow's excludes, and lists the files git would list
 * (`walkProject`), as that script's `ls-files` prints them for an empty index. Resolves to
 * null when the repository is beyond the plain cases (the caller runs the script instead),
 * and to a listing of null when the project is too large to walk here (the caller lists
 * with git). Rejects when the shadow's excludes cannot be written.
 */
export async function listFirstLocally(
  shadow: ShadowRepo,
  env: Readonly<Record<string, string | undefined>>,
): Promise<FirstListing | null> {
  if (existsSync(shadow.indexFile) || shadow.hashLength !== 20) return null;
  const local = readRepoLocally(shadow.projectRoot, env, true);
  if (!local) return null;
  let excludes: { file: string | null; text: string | null };
  let userExclude: string | null = null;
  try {
    if (local.gitDir) userExclude = readRegularText(join(local.gitDir, "info", "exclude")) ?? "";
    // As the script: a configured excludes file counts when it is a regular file (read or
    // not); without one (outside a repository too) git reads its default one.
    const configured = local.gitDir ? local.excludesFile : null;
    const fallback = defaultExcludesFile(env);
    excludes =
      configured && statSync(configured, { throwIfNoEntry: false })?.isFile()
        ? { file: configured, text: readRegularText(configured) }
        : { file: null, text: fallback ? readRegularText(fallback) : null };
  } catch {
    return null; // A file too large to read here.
  }
  // Bytes that are not UTF-8 would not survive the copy into the shadow's excludes.
  if (userExclude?.includes("\uFFFD")) return null;
  const repo: UserRepoInfo = {
    commonDir: local.gitDir,
    atTopLevel: true,
    excludesFile: excludes.file,
  };
  const infoExclude = excludeText(userExclude);
  const ignoresChanged = await shadow.writeExclude(infoExclude);
  const walk = walkProject(shadow.projectRoot, {
    excludesFile: excludes.text,
    infoExclude,
    maxFiles: IN_PROCESS_LIMITS.maxFiles,
    maxDirs: MAX_WALKED_DIRS,
  });
  if ("unsupported" in walk) return { repo, listing: null, ignoresChanged };
  const listing = Buffer.from(walk.files.map((path) => `? ${path}\0`).join(""));
  return { repo, listing, ignoresChanged };
}
