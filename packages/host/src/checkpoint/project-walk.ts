import { isUtf8 } from "node:buffer";
import {
  type Dirent,
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  readdirSync,
} from "node:fs";
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
  /** Folder entries read so far (listed or not). */
  entries: number;
}

/** Entries read, listed or ignored, per file the walk may list: past this it gives up. */
const ENTRIES_PER_FILE = 8;

function parseText(text: string, what: string): IgnoreList {
  // A replacement character may stand for bytes a lossy decode lost: their patterns are unknown.
  if (text.includes("\uFFFD")) throw new GiveUp(`${what}: U+FFFD (bytes that were not UTF-8?)`);
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

/** Opens without following a final symlink and without blocking on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * A folder's `.gitignore`, when it is a regular file. Git does not follow a symlinked one (it
 * warns, and lists the link) and gets no patterns from a folder named `.gitignore`; it blocks
 * for ever opening a FIFO. None of those gives patterns here, and nothing is read but what
 * `fstat` calls a regular file on the descriptor opened (no race with a swap after a check).
 */
function readGitignore(dirAbs: string, entry: Dirent<Buffer>, base: Buffer): IgnoreList | null {
  if (!entry.isFile()) return null;
  const file = join(dirAbs, ".gitignore");
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Gone since the listing, or a symlink by now: no patterns, as for git.
    if (code === "ENOENT" || code === "ELOOP") return null;
    throw new GiveUp(`cannot read ${file}: ${code ?? String(error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return null;
    if (stat.size > MAX_GITIGNORE_BYTES) {
      throw new GiveUp(`${file} is over ${MAX_GITIGNORE_BYTES} bytes`);
    }
    const list = parseIgnoreList(readFileSync(fd), base.length);
    if ("unsupported" in list) throw new GiveUp(`${file}: ${list.unsupported}`);
    return list;
  } finally {
    closeSync(fd);
  }
}

function readFolder(state: WalkState, dirAbs: string): Dirent<Buffer>[] {
  if (++state.dirs > state.options.maxDirs)
    throw new GiveUp(`more than ${state.options.maxDirs} folders`);
  let entries: Dirent<Buffer>[];
  try {
    // Names as bytes: a name that is not UTF-8 must not be mangled into another one.
    entries = readdirSync(dirAbs, { withFileTypes: true, encoding: "buffer" });
  } catch (error) {
    throw new GiveUp(`cannot read ${dirAbs}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  // A folder of many ignored files costs its read even though none of them is listed.
  state.entries += entries.length;
  if (state.entries > state.options.maxFiles * ENTRIES_PER_FILE) {
    throw new GiveUp(`more than ${state.options.maxFiles * ENTRIES_PER_FILE} entries read`);
  }
  return entries;
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
    const name = entry.name;
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
    const name = entry.name;
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
 * their UTF-8 bytes as git prints them. Matching is case-sensitive (`core.ignoreCase` false:
 * do not use it for a repository that sets it).
 *
 * Answers `{ unsupported }` (the caller must ask git) for: a `.git` (folder or file) below
 * the root (a nested repository), a name that is not valid UTF-8, a folder that cannot be
 * read (git warns and skips it), a `.gitignore` over {@link MAX_GITIGNORE_BYTES} or that
 * cannot be read for another reason than vanishing, a pattern not matched here as git does
 * (a POSIX class such as `[[:alpha:]]`, a NUL byte), an excludes or info/exclude text
 * holding U+FFFD (what a lossy decode leaves of bytes that were not UTF-8), more than
 * `maxFiles` files, `maxDirs` folders (the root counts as one) or eight entries read per
 * allowed file (a folder of many ignored files is read whole). One deliberate
 * difference: a `.gitignore` that is not a regular file gives no patterns; git agrees for a
 * symlink and a folder, but blocks for ever opening a FIFO, and this walk never blocks.
 *
 * Synchronous on purpose (readdir with file types): it is meant for small projects, where
 * each async hop waits for a busy event loop. Never throws; a root that is not a readable
 * folder gives `unsupported`.
 */
export function walkProject(root: string, options: ProjectWalkOptions): ProjectWalk {
  try {
    const fileLists = [parseText(options.infoExclude, "info/exclude")];
    if (options.excludesFile !== null)
      fileLists.push(parseText(options.excludesFile, "the excludes file"));
    const state: WalkState = { options, fileLists, files: [], dirs: 0, entries: 0 };
    walkFolder(state, root, Buffer.alloc(0), []);
    state.files.sort(Buffer.compare);
    return { files: state.files.map((path) => path.toString("utf8")) };
  } catch (error) {
    if (error instanceof GiveUp) return { unsupported: error.reason };
    const code = (error as NodeJS.ErrnoException).code;
    return { unsupported: `the walk failed: ${code ?? String(error)}` };
  }
}
