import { lstat, readlink, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { commandPaths, type ParsedCommand } from "../external.js";

/** Most symlinks followed for one path (as the kernel's own limit, 40). */
const MAX_HOPS = 40;

/** Where the paths a command line names lead, for the gate (policy's command action). */
export interface CommandPaths {
  /** Paths that lead elsewhere (symlinks followed), keyed as `commandPaths` lists them. */
  readonly realPaths: Map<string, string>;
  /** Paths (listed or real) of regular files with more than one hard link. */
  readonly hardLinked: Set<string>;
}

/**
 * Where each path a command line names really leads (see policy's `commandPaths`): symlinks
 * followed, a dangling one by its link text, repeatedly, so `> report.txt` with `report.txt ->
 * ~/.bashrc` (existing or not yet) is judged as a write to `~/.bashrc`; and which of them are
 * files with other hard links, so `> notes` with `notes` a hard link of `~/.bashrc` is judged
 * as a write to a place not known. Never rejects.
 */
export async function resolveCommandPaths(
  parsed: ParsedCommand,
  cwd: string,
  home: string = homedir(),
): Promise<CommandPaths> {
  const realPaths = new Map<string, string>();
  const hardLinked = new Set<string>();
  const paths = commandPaths(parsed, cwd, home);
  const reals = await Promise.all(paths.map((p) => followPath(p)));
  const links = await Promise.all(reals.map((real) => lstat(real).catch(() => null)));
  paths.forEach((p, i) => {
    const real = reals[i] ?? p;
    if (real !== p) realPaths.set(p, real);
    const info = links[i];
    if (info?.isFile() === true && info.nlink > 1) hardLinked.add(p).add(real);
  });
  return { realPaths, hardLinked };
}

/**
 * The real absolute path of `path`: like `realpath`, but a path that does not exist resolves
 * its deepest existing folder, and a dangling symlink resolves through its link text. A loop
 * of links gives the path as it is (writing through it fails). Never rejects.
 */
export async function followPath(path: string, hops = 0): Promise<string> {
  if (hops > MAX_HOPS) return path;
  try {
    return await realpath(path);
  } catch {
    // Missing, dangling or looping: look at the last part on its own.
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = await followPath(parent, hops);
  const here = join(realParent, basename(path));
  try {
    if ((await lstat(here)).isSymbolicLink()) {
      const target = resolve(realParent, await readlink(here));
      return followPath(target, hops + 1);
    }
  } catch {
    // Nothing there yet: the path is where it will be created.
  }
  return here;
}
