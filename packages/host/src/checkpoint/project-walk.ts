import { isUtf8 } from "node:buffer";
import { type Dirent, lstatSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type IgnoreList, lastMatch, parseIgnoreList } from "./ignore-rules.js";

/** What {@link walkProject} needs besides the project's own `.gitignore` files. */
export interface ProjectWalkOptions {
  /** Text of the excludes file (core.excludesFile or git's default), lowest precedence; null for none. */
  readonly excludesFile: string | null;
  /** Text of the repository's info/exclude (higher precedence than excludesFile). */
  readonly infoExclude: string;
  /** Give up (unsupported) when more files than this would be listed. */
  readonly maxFiles: number;
  /** Give up (unsupported) when more folders than this would be read. */
  readonly maxDirs: number;
}

/** The files {@link walkProject} listed, or why it gave up (the caller then asks git). */
export type ProjectWalk =
  | { readonly files: string[] } // project-relative, "/"-separated, in git's byte order (as ls-files prints them)
  | { readonly unsupported: string }; // why it gave up: the caller then asks git

/** A `.gitignore` larger than this is left to git. */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;

const SLASH = Buffer.from("/");

/** Thrown inside the walk to stop it; never escapes {@link walkProject}. */
class GiveUp {
  constructor(readonly reason: string) {}
}

interface WalkState {
  readonly options: ProjectWalkOptions;
  /** info/exclude, then the excludes file: checked after every `.gitignore`. */
  readonly fileLists: readonly IgnoreList[];
  readonly files: Buffer[];
  dirs: number;
}

function parseText(text: string, what: string): IgnoreList {
  const list = parseIgnoreList(Buffer.from(text, "utf8"), 0);
  if ("unsupported" in list) throw new GiveUp(`${what}: ${list.unsupported}`);
  return list;
}

/**
 * Git's verdict from the lists, highest precedence first: the deepest `.gitignore` first,
 * then its parents', then info/exclude, then the excludes file. The first list with a
 * matching pattern decides (its last match), even when that match is a `!` pattern.
 */
function isIgnored(
  dirLists: readonly IgnoreList[],
  state: WalkState,
  path: Buffer,
  isDir: boolean,
): boolean {
  for (let i = dirLists.length - 1; i >= 0; i--) {
    const list = dirLists[i];
    const verdict = list ? lastMatch(list, path, isDir) : undefined;
    if (verdict !== undefined) return verdict;
  }
  for (const list of state.fileLists) {
    const verdict = lastMatch(list, path, isDir);
    if (verdict !== undefined) return verdict;
  }
  return false;
}

/**
 * A folder's `.gitignore`, when it is a regular file. Git does not follow a symlinked one
 * (and lists the link); a folder named `.gitignore` gives git no patterns; a FIFO would block
 * git for ever: none of those gives patterns here, and nothing but a regular file is opened.
 */
function readGitignore(dirAbs: string, entry: Dirent, base: Buffer): IgnoreList | null {
  const file = join(dirAbs, ".gitignore");
  const regular = entry.isFile() || (!entry.isSymbolicLink() && lstatSync(file).isFile());
  if (!regular) return null;
  const size = lstatSync(file).size;
  if (size > MAX_GITIGNORE_BYTES) throw new GiveUp(`${file} is over ${MAX_GITIGNORE_BYTES} bytes`);
  const list = parseIgnoreList(readFileSync(file), base.length);
  if ("unsupported" in list) throw new GiveUp(`${file}: ${list.unsupported}`);
  return list;
}

function readFolder(state: WalkState, dirAbs: string): Dirent[] {
  if (++state.dirs > state.options.maxDirs)
    throw new GiveUp(`more than ${state.options.maxDirs} folders`);
  try {
    // Names as bytes: a name that is not UTF-8 must not be mangled into another one.
    return readdirSync(dirAbs, { withFileTypes: true, encoding: "buffer" }) as unknown as Dirent[];
  } catch (error) {
    throw new GiveUp(`cannot read ${dirAbs}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

function nameOf(entry: Dirent): Buffer {
  return entry.name as unknown as Buffer;
}

/** Lists one folder (`base`: its project-relative bytes with a trailing `/`, or empty). */
function walkFolder(
  state: WalkState,
  dirAbs: string,
  base: Buffer,
  parentLists: readonly IgnoreList[],
): void {
  const entries = readFolder(state, dirAbs);
  let lists = parentLists;
  for (const entry of entries) {
    const name = nameOf(entry);
    if (!isUtf8(name)) throw new GiveUp(`a name that is not UTF-8 in ${dirAbs}`);
    const text = name.toString("utf8");
    if (text === ".git" && base.length > 0) {
      throw new GiveUp(`${join(dirAbs, ".git")}: a nested repository`);
    }
    if (text === ".gitignore") {
      const list = readGitignore(dirAbs, entry, base);
      if (list) lists = [...parentLists, list];
    }
  }
  for (const entry of entries) {
    const name = nameOf(entry);
    const text = name.toString("utf8");
    if (text === ".git") continue;
    const path = Buffer.concat([base, name]);
    if (entry.isDirectory()) {
      if (!isIgnored(lists, state, path, true)) {
        walkFolder(state, join(dirAbs, text), Buffer.concat([path, SLASH]), lists);
      }
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      if (isIgnored(lists, state, path, false)) continue;
      state.files.push(path);
      if (state.files.length > state.options.maxFiles) {
        throw new GiveUp(`more than ${state.options.maxFiles} files`);
      }
    }
    // FIFOs, sockets and devices: git lists none of them, and neither does this.
  }
}

/**
 * Lists the files under `root` that `git ls-files -z -o --exclude-standard` lists for a
 * repository whose work tree is `root` and whose index is empty, without spawning git:
 * ignore rules from `excludesFile` < `infoExclude` < each folder's `.gitignore` (deeper over
 * shallower; within one file the last matching pattern wins, `!` re-includes), ignored
 * folders not entered, `.git` at the root skipped, symlinks listed and never followed,
 * FIFOs, sockets and devices left out. Paths are project-relative, `/`-separated, sorted by
 * their UTF-8 bytes as git prints them. Matching is case-sensitive (`core.ignoreCase` false).
 *
 * Answers `{ unsupported }` (the caller must ask git) for: a `.git` (folder or file) below
 * the root (a nested repository), a name that is not valid UTF-8, a folder that cannot be
 * read, a `.gitignore` over {@link MAX_GITIGNORE_BYTES}, a pattern this module does not
 * match as git does (POSIX classes `[[:alpha:]]`, a NUL byte), more than `maxFiles` files or
 * `maxDirs` folders. One deliberate difference: a `.gitignore` that is not a regular file
 * (a FIFO, a symlink, a folder) gives no patterns; git agrees for a symlink and a folder but
 * blocks for ever opening a FIFO, and this walk never blocks. Synchronous (it is meant for
 * small projects, where an async hop costs more than the reads). Never throws for anything
 * on disk; the root must be a folder (else `unsupported`).
 */
export function walkProject(root: string, options: ProjectWalkOptions): ProjectWalk {
  try {
    const fileLists = [parseText(options.infoExclude, "info/exclude")];
    if (options.excludesFile !== null)
      fileLists.push(parseText(options.excludesFile, "the excludes file"));
    const state: WalkState = { options, fileLists, files: [], dirs: 0 };
    walkFolder(state, root, Buffer.alloc(0), []);
    state.files.sort(Buffer.compare);
    return { files: state.files.map((path) => path.toString("utf8")) };
  } catch (error) {
    if (error instanceof GiveUp) return { unsupported: error.reason };
    const code = (error as NodeJS.ErrnoException).code;
    return { unsupported: `the walk failed: ${code ?? String(error)}` };
  }
}
