import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  rmdirSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { endianness, tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { HostError } from "../errors.js";
import type { SandboxBackend, SandboxCommand, WrappedCommand } from "./backend.js";
import type { SandboxProfile } from "./profile.js";
import { unixSocketFilter } from "./seccomp.js";

/** Opens `$1` as descriptor 3, then runs the rest of the arguments as the program. */
const OPEN_FILTER = 'exec 3<"$1" || exit 126; shift; exec "$@"';

/** Options for {@link BubblewrapSandbox}. */
export interface BubblewrapOptions {
  /** The bwrap program (default `bwrap`, found on PATH). */
  readonly bwrap?: string;
  /** Where the empty placeholder file and folder live (default a new folder in the OS temporary folder). */
  readonly placeholderParent?: string;
  /** The user and group ids the command has inside (default the caller's). */
  readonly uid?: number;
  readonly gid?: number;
}

interface Mount {
  readonly args: string[];
  /** A path bwrap will create on the host as a mount point, to remove afterwards. */
  readonly created?: string;
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return "notdir" as const;
    return null;
  }
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * Linux: wraps commands in bubblewrap. The whole file system is bound read-only, the
 * writable folders are bound read-write over it, and the protected paths are bound
 * read-only again on top. A protected path that does not exist yet is covered where its
 * first missing component would be: by a read-only bind of an empty file (when that
 * component is the path itself) or of an empty folder (otherwise), so nothing can be
 * created there. bwrap must create that mount point on the host, so `release()` removes it
 * again when it is still empty (counted across this instance's concurrent commands).
 * With the network off the command gets its own network namespace (no loopback to the
 * host) and a seccomp filter that refuses Unix sockets (`seccomp.ts`). Every command runs
 * in a user namespace of its own (the caller's ids mapped) with no capabilities, also
 * under root. A protected path that is a symbolic link is refused (`sandboxUnavailable`).
 * `--unshare-pid` and `--die-with-parent` make killing bwrap kill everything inside.
 */
export class BubblewrapSandbox implements SandboxBackend {
  readonly name = "bubblewrap";
  private readonly bwrap: string;
  private readonly placeholderParent: string;
  private placeholderDir: string | undefined;
  private readonly mountPoints = new Map<string, number>();
  private readonly ids: readonly string[];

  constructor(options: BubblewrapOptions = {}) {
    this.bwrap = options.bwrap ?? "bwrap";
    this.placeholderParent = options.placeholderParent ?? tmpdir();
    const uid = options.uid ?? process.getuid?.() ?? 0;
    const gid = options.gid ?? process.getgid?.() ?? 0;
    this.ids = ["--uid", String(uid), "--gid", String(gid)];
  }

  /**
   * Throws a `HostError` (`sandboxUnavailable`) when the placeholders cannot be made, a
   * protected path is a symbolic link, or (network off) Unix sockets cannot be blocked here.
   */
  wrap(command: SandboxCommand, profile: SandboxProfile): WrappedCommand {
    const placeholders = this.placeholders();
    const filter = profile.network ? null : this.filterFile();
    const writable = [...profile.writable].sort((a, b) => a.length - b.length);
    // A user namespace of its own and no capabilities, also when the caller is root (who
    // could otherwise remount the read-only file system writable).
    const args = ["--die-with-parent", "--new-session", "--unshare-pid", "--unshare-user"];
    args.push(...this.ids, "--cap-drop", "ALL");
    if (!profile.network) args.push("--unshare-net", "--seccomp", "3");
    args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
    for (const dir of writable) {
      if (lstatOrNull(dir)) args.push("--bind", dir, dir);
    }
    args.push("--ro-bind", placeholders, placeholders);
    const created: string[] = [];
    for (const path of profile.readOnlyInside) {
      const mount =
        (this.mountPoints.has(path) ? sharedPlaceholder(path, placeholders) : null) ??
        protectMount(path, writable, placeholders);
      if (!mount) continue;
      args.push(...mount.args);
      if (mount.created && !created.includes(mount.created)) created.push(mount.created);
    }
    for (const path of created) this.mountPoints.set(path, (this.mountPoints.get(path) ?? 0) + 1);
    args.push("--chdir", command.cwd, "--", command.program, ...command.args);
    let released = false;
    // bwrap reads the seccomp filter from descriptor 3, which `sh` opens before it becomes bwrap.
    const launch =
      filter === null
        ? { program: this.bwrap, args }
        : { program: "/bin/sh", args: ["-c", OPEN_FILTER, "sh", filter, this.bwrap, ...args] };
    return {
      ...launch,
      release: () => {
        if (released) return;
        released = true;
        for (const path of created) this.releaseMountPoint(path);
      },
    };
  }

  /** Removes the placeholder folder. Safe to call twice; later `wrap` calls make a new one. */
  dispose(): void {
    if (this.placeholderDir) rmSync(this.placeholderDir, { recursive: true, force: true });
    this.placeholderDir = undefined;
  }

  /** The Unix-socket seccomp filter's file, written once beside the placeholders. */
  private filterFile(): string {
    const file = join(this.placeholders(), "unix-sockets.bpf");
    if (lstatOrNull(file)) return file;
    const filter = endianness() === "LE" ? unixSocketFilter() : null;
    if (!filter) {
      throw new HostError(
        "sandboxUnavailable",
        `cannot block Unix sockets on ${process.arch} (${endianness()}), so the network cannot be cut`,
      );
    }
    writeFileSync(file, filter, { mode: 0o444 });
    return file;
  }

  private placeholders(): string {
    if (this.placeholderDir) return this.placeholderDir;
    try {
      const dir = mkdtempSync(join(this.placeholderParent, "zeng-bwrap-"));
      writeFileSync(join(dir, "file"), "", { mode: 0o444 });
      mkdirSync(join(dir, "dir"), { mode: 0o555 });
      // bwrap may run as another user than this process (it binds these as their sources).
      chmodSync(dir, 0o755);
      this.placeholderDir = dir;
      return dir;
    } catch (cause) {
      throw new HostError("sandboxUnavailable", "cannot create sandbox placeholders", { cause });
    }
  }

  private releaseMountPoint(path: string): void {
    const count = (this.mountPoints.get(path) ?? 1) - 1;
    if (count > 0) {
      this.mountPoints.set(path, count);
      return;
    }
    this.mountPoints.delete(path);
    const stat = lstatOrNull(path);
    if (!stat || stat === "notdir") return;
    try {
      if (stat.isFile() && stat.size === 0) unlinkSync(path);
      else if (stat.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
    } catch {
      // Someone else is using it now; leaving an empty placeholder is harmless.
    }
  }
}

/**
 * The mount for a protected path that is another running command's placeholder mount point
 * (an empty file or folder bwrap made on the host): it gets the placeholder too and counts as
 * created, so the first command's release cannot remove it while this one runs. Binding the
 * path onto itself instead would leave this command exposed: unlinking a mount point in
 * another mount namespace detaches the mount there.
 */
function sharedPlaceholder(path: string, placeholders: string): Mount | null {
  const stat = lstatOrNull(path);
  if (!stat || stat === "notdir" || stat.isSymbolicLink()) return null;
  const source = join(placeholders, stat.isDirectory() ? "dir" : "file");
  return { args: ["--ro-bind", source, path], created: path };
}

/** The bwrap arguments that keep one protected path read-only, or null when nothing is needed. */
function protectMount(
  path: string,
  writable: readonly string[],
  placeholders: string,
): Mount | null {
  if (!writable.some((dir) => isInside(path, dir))) return null;
  const stat = lstatOrNull(path);
  if (stat === "notdir") {
    // An ancestor is a file (a worktree's `.git` file): keep that file read-only.
    let file = dirname(path);
    while (lstatOrNull(file) === "notdir") file = dirname(file);
    return { args: ["--ro-bind", file, file] };
  }
  if (stat?.isSymbolicLink()) {
    // A mount holds a folder entry in place, but a mount on a link lands on its target: the
    // link itself could be removed and replaced by a real file or folder. Refuse.
    throw new HostError(
      "sandboxUnavailable",
      `the protected path ${path} is a symbolic link, which a sandboxed command could replace; replace it with the file or folder itself`,
    );
  }
  if (stat) return { args: ["--ro-bind", path, path] };
  let missing = path;
  while (dirname(missing) !== missing && lstatOrNull(dirname(missing)) === null) {
    missing = dirname(missing);
  }
  const parent = lstatOrNull(dirname(missing));
  if (!parent || parent === "notdir" || !parent.isDirectory()) return null;
  const source = join(placeholders, missing === path ? "file" : "dir");
  return { args: ["--ro-bind", source, missing], created: missing };
}
