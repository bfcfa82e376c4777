import { type BigIntStats, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { HostError } from "../errors.js";

/** Folders a scan visits at most before it gives up (the sandbox then refuses to start). */
export const NESTED_GIT_SCAN_LIMIT = 200_000;

interface Folder {
  readonly mtime: bigint;
  readonly ctime: bigint;
  readonly ino: bigint;
  readonly subfolders: readonly string[];
  readonly gits: readonly string[];
}

/** Whether `name` is a git folder or file (`.git`; any case, as on macOS's file system). */
const isGitName = (name: string) => name.length === 4 && name.toLowerCase() === ".git";

function lstatBig(path: string): BigIntStats | undefined {
  try {
    return lstatSync(path, { bigint: true });
  } catch {
    return undefined;
  }
}

function list(path: string, stat: BigIntStats): Folder {
  const subfolders: string[] = [];
  const gits: string[] = [];
  let entries: import("node:fs").Dirent[] = [];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    // Unreadable: nothing below it can be found (nor written by a sandboxed command as us).
  }
  for (const entry of entries) {
    const full = join(path, entry.name);
    // A `.git` of any kind (folder, file, link) is kept read-only, and not entered.
    if (isGitName(entry.name)) gits.push(full);
    else if (entry.isDirectory()) subfolders.push(full);
  }
  return { mtime: stat.mtimeNs, ctime: stat.ctimeNs, ino: stat.ino, subfolders, gits };
}

/**
 * Finds every `.git` (folder or file: a vendored repository, a submodule, a worktree) under
 * some folders, for the sandbox to keep read-only. Symbolic links to folders are not
 * followed. Incremental: a folder whose modification and change times and inode are what the
 * last scan saw is not listed again (any entry added, removed or renamed in it changes them,
 * and a sandboxed command cannot set a change time back), so a rescan before each command
 * costs one `lstat` per folder.
 */
export class NestedGitScanner {
  private cache = new Map<string, Folder>();

  constructor(private readonly limit: number = NESTED_GIT_SCAN_LIMIT) {}

  /**
   * Every `.git` under `roots` (the roots' own included), sorted. Throws a `HostError`
   * (`sandboxUnavailable`) past the folder limit: the sandbox could not promise the rest.
   */
  scan(roots: readonly string[]): string[] {
    const next = new Map<string, Folder>();
    const found = new Set<string>();
    const pending = [...roots];
    while (pending.length > 0) {
      const path = pending.pop() as string;
      if (next.has(path)) continue;
      const stat = lstatBig(path);
      if (!stat?.isDirectory()) continue;
      if (next.size >= this.limit)
        throw new HostError(
          "sandboxUnavailable",
          `more than ${this.limit} folders under ${roots.join(", ")}: the sandbox cannot check them all for nested .git folders to keep read-only`,
        );
      const known = this.cache.get(path);
      const folder =
        known &&
        known.mtime === stat.mtimeNs &&
        known.ctime === stat.ctimeNs &&
        known.ino === stat.ino
          ? known
          : list(path, stat);
      next.set(path, folder);
      for (const git of folder.gits) found.add(git);
      pending.push(...folder.subfolders);
    }
    this.cache = next;
    return [...found].sort();
  }
}

/**
 * A shell's watch over nested `.git` folders: {@link protect} before each sandboxed command
 * (every `.git` under the scan roots, to bind read-only), {@link created} after it (the ones
 * that appeared since: a command made a repository inside the sandbox, which it could fill
 * with hooks and config before the next command found it; the caller warns about them).
 */
export class NestedGitGuard {
  private readonly scanner: NestedGitScanner;
  private readonly known = new Set<string>();

  constructor(
    private readonly roots: readonly string[],
    limit?: number,
  ) {
    this.scanner = new NestedGitScanner(limit);
  }

  /** Every `.git` under the roots now; throws like {@link NestedGitScanner.scan}. */
  protect(): string[] {
    const all = this.scanner.scan(this.roots);
    for (const git of all) this.known.add(git);
    return all;
  }

  /** The `.git` entries that appeared since the last look, now known. Never throws. */
  created(): string[] {
    let all: string[];
    try {
      all = this.scanner.scan(this.roots);
    } catch {
      return [];
    }
    const fresh = all.filter((git) => !this.known.has(git));
    for (const git of fresh) this.known.add(git);
    return fresh;
  }
}
