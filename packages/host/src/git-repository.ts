import { type Stats, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** Where a folder's git repository is, as git's discovery would find it. */
export interface FoundRepository {
  /** The work tree's top folder. */
  readonly workTree: string;
  /** The repository's git folder (`<top>/.git`, or what a `.git` file names). */
  readonly gitDir: string;
  /** The common git folder (holds objects and refs): `gitDir`, or what its `commondir` names. */
  readonly commonDir: string;
}

const HEAD = /^(ref: refs\/\S+|[0-9a-f]{40}|[0-9a-f]{64})\s*$/;
const MAX_SMALL = 64 * 1024;

function info(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * Whether `path` is there but not a regular file once links are followed (a FIFO, a socket,
 * a device, a folder). Git opens its fixed files with a blocking `open`: a FIFO there makes
 * every git call in the repository wait for ever.
 */
function blocking(path: string): boolean {
  const entry = info(path);
  return entry !== undefined && !entry.isFile();
}

/** A small regular file's text, or null (never opens a FIFO or a device). */
function small(path: string): string | null {
  const entry = info(path);
  if (!entry?.isFile() || entry.size > MAX_SMALL) return null;
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Files of a git folder, and of its common folder, that git opens on (nearly) every call. */
const GIT_DIR_FILES = ["HEAD", "commondir", "index", "config.worktree"];
const COMMON_DIR_FILES = ["config", "packed-refs", join("info", "exclude")];

/** Whether git, reading the repository's fixed files, would open one that is no regular file. */
function blocksGit(gitDir: string, commonDir: string): boolean {
  return (
    GIT_DIR_FILES.some((name) => blocking(join(gitDir, name))) ||
    COMMON_DIR_FILES.some((name) => blocking(join(commonDir, name)))
  );
}

/** The common folder of a git folder when it is one as git's `is_git_directory` says, else null. */
function gitDirectory(dir: string): string | null {
  const head = small(join(dir, "HEAD"));
  if (head === null || !HEAD.test(head)) return null;
  const named = small(join(dir, "commondir"));
  const common = named === null ? dir : resolve(dir, named.trim());
  if (!info(join(common, "objects"))?.isDirectory()) return null;
  if (!info(join(common, "refs"))?.isDirectory()) return null;
  return common;
}

/** Git refuses a repository another user owns (`safe.directory`); so does this. */
function ours(entry: Stats | undefined, env: Readonly<Record<string, string | undefined>>) {
  if (!entry || typeof process.geteuid !== "function") return entry !== undefined;
  const uid = process.geteuid();
  if (entry.uid === uid) return true;
  // As git: root running under sudo owns what the calling user owns.
  return uid === 0 && env.SUDO_UID !== undefined && String(entry.uid) === env.SUDO_UID;
}

/** What `<dir>/.git` holds: a repository, nothing (look further up), or a refusal. */
function atFolder(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
): FoundRepository | "none" | "refused" | "blocking" {
  const dotGit = join(dir, ".git");
  const entry = info(dotGit);
  if (entry?.isDirectory()) {
    if (blocking(join(dotGit, "HEAD"))) return "blocking";
    const common = gitDirectory(dotGit);
    // Git passes over a `.git` folder that is no repository.
    if (common === null) return "none";
    if (blocksGit(dotGit, common)) return "blocking";
    return ours(entry, env) && ours(info(dir), env)
      ? { workTree: dir, gitDir: dotGit, commonDir: common }
      : "refused";
  }
  if (entry?.isFile()) {
    // Git dies on a `.git` file it cannot follow.
    const text = small(dotGit);
    const named = text === null ? null : /^gitdir: (.+?)\s*$/.exec(text.split("\n")[0] ?? "");
    if (!named?.[1]) return "refused";
    const gitDir = isAbsolute(named[1]) ? named[1] : resolve(dir, named[1]);
    if (blocking(join(gitDir, "HEAD")) || blocking(join(gitDir, "commondir"))) return "blocking";
    const common = gitDirectory(gitDir);
    if (common === null) return "refused";
    if (blocksGit(gitDir, common)) return "blocking";
    const owned = ours(entry, env) && ours(info(dir), env) && ours(info(gitDir), env);
    return owned ? { workTree: dir, gitDir, commonDir: common } : "refused";
  }
  return "none";
}

/**
 * The repository `folder` (a real absolute path) is in, found in process as git's
 * discovery finds it: the nearest folder from `folder` up with a `.git` folder that is a
 * repository or a `.git` file naming one, not crossing into another file system. Null
 * when there is none, and wherever the engine's git would refuse or die: the nearest
 * candidate is a bare repository (`safe.bareRepository=explicit`), another user owns it,
 * or a `.git` file names no repository. Reads a few small files; never throws.
 */
export function findGitRepository(
  folder: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): FoundRepository | null {
  const found = discoverGitRepository(folder, env);
  return typeof found === "string" ? null : found;
}

/**
 * As {@link findGitRepository}, telling apart why there is none: `"blocking"` when git's
 * discovery would open a fixed file of the nearest candidate (`HEAD`, `commondir`, `index`,
 * `config`, `packed-refs`, `info/exclude`) that is no regular file, and so hang; `"none"`
 * otherwise. For the git door.
 */
export function discoverGitRepository(
  folder: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): FoundRepository | "none" | "blocking" {
  const device = info(folder)?.dev;
  if (device === undefined) return "none";
  for (let dir = folder; ; dir = dirname(dir)) {
    const found = atFolder(dir, env);
    if (found === "refused") return "none";
    if (found !== "none") return found;
    // A bare repository here: git's `is_git_directory` opens its HEAD.
    if (blocking(join(dir, "HEAD")) && info(join(dir, "objects"))?.isDirectory()) return "blocking";
    if (gitDirectory(dir) !== null) return "none";
    const parent = dirname(dir);
    if (parent === dir || info(parent)?.dev !== device) return "none";
  }
}
