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
): FoundRepository | "none" | "refused" {
  const dotGit = join(dir, ".git");
  const entry = info(dotGit);
  if (entry?.isDirectory()) {
    const common = gitDirectory(dotGit);
    // Git passes over a `.git` folder that is no repository.
    if (common === null) return "none";
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
    const common = gitDirectory(gitDir);
    if (common === null) return "refused";
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
  const device = info(folder)?.dev;
  if (device === undefined) return null;
  for (let dir = folder; ; dir = dirname(dir)) {
    const found = atFolder(dir, env);
    if (found === "refused") return null;
    if (found !== "none") return found;
    if (gitDirectory(dir) !== null) return null;
    const parent = dirname(dir);
    if (parent === dir || info(parent)?.dev !== device) return null;
  }
}
