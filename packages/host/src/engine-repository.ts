import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseGitConfig } from "./git-config-file.js";

/**
 * A git repository the engine made and owns, in its data or session folder: the checkpoints'
 * shadow repository, a worktree agent's repository. Its config is one the engine wrote (no
 * driver, include or program in it), and its `info/attributes` turns every filter off. Any
 * command may run on it, always with an explicit `GIT_DIR` (and `GIT_WORK_TREE` and
 * `GIT_INDEX_FILE` when given), never found by discovery.
 */
export interface EngineRepository {
  readonly kind: "engine";
  readonly gitDir: string;
  /** The work tree (`GIT_WORK_TREE`); calls that need none leave it out. */
  readonly workTree?: string;
  /** The index (`GIT_INDEX_FILE`); default the repository's own. */
  readonly indexFile?: string;
}

/**
 * The settings an engine repository's config may hold: the layout `git init` writes, the
 * index version, automatic gc off and the object format. Nothing that names a program,
 * a driver, another file or another folder.
 */
const ALLOWED = new Set([
  "core.repositoryformatversion",
  "core.bare",
  "core.logallrefupdates",
  "core.autocrlf",
  "core.safecrlf",
  "core.symlinks",
  "core.filemode",
  "core.quotepath",
  "core.ignorecase",
  "core.precomposeunicode",
  "index.version",
  "gc.auto",
  "extensions.objectformat",
]);

/**
 * The config file of an engine repository: a non-bare repository (what `git init` makes with
 * no system or user config, which engine git never reads) whose files are stored byte for
 * byte (no end-of-line conversion), links as links, the executable bit kept, a compact
 * index, paths unquoted, no automatic gc; sha256 object names when the project's are.
 */
export function engineConfigText(objectFormat: "sha1" | "sha256" = "sha1"): string {
  const version = objectFormat === "sha256" ? 1 : 0;
  const extensions = objectFormat === "sha256" ? "[extensions]\n\tobjectformat = sha256\n" : "";
  return `[core]
\trepositoryformatversion = ${version}
\tbare = false
\tlogallrefupdates = false
\tautocrlf = false
\tsafecrlf = false
\tsymlinks = true
\tfileMode = true
\tquotePath = false
[index]
\tversion = 4
[gc]
\tauto = 0
${extensions}`;
}

/**
 * An engine repository's `info/attributes`: the highest-precedence attributes file, so
 * whatever a project's `.gitattributes` says, files are stored and checked out byte for
 * byte (no filter driver, end-of-line conversion, `ident` or re-encoding).
 */
export const ENGINE_ATTRIBUTES = "* -text -filter -ident -working-tree-encoding\n";

/** The most bytes an engine repository's config may hold (the engine writes a few hundred). */
const MAX_CONFIG = 16 * 1024;

/**
 * Why git may not run on `gitDir` as an engine repository, or null when it may: its config
 * must exist, be plain (no include) and hold only {@link ALLOWED} settings, and the folder
 * must hold no `commondir` (which would make git read another folder's config). Something
 * that changed it (a command the agent ran outside the sandbox, say) makes the door refuse
 * rather than run what it names. Reads one small file; never throws.
 */
export function engineRepositoryRefusal(gitDir: string): string | null {
  try {
    if (lstatSync(join(gitDir, "commondir"), { throwIfNoEntry: false }))
      return `${gitDir} holds a commondir the engine did not write`;
    const config = join(gitDir, "config");
    const entry = lstatSync(config, { throwIfNoEntry: false });
    if (!entry?.isFile() || entry.size > MAX_CONFIG)
      return `${config} is not a config file the engine wrote`;
    const values = parseGitConfig(readFileSync(config, "utf8"));
    if (values === null) return `${config} holds settings the engine did not write`;
    for (const key of values.keys()) {
      if (!ALLOWED.has(key)) return `${config} sets ${key}, which the engine never writes`;
    }
    return null;
  } catch (error) {
    return `${gitDir} cannot be read: ${(error as Error).message}`;
  }
}
