import { lstat, readdir, rm, rmdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { splitNul } from "../git.js";
import { compareTrees } from "./compare.js";
import type { ShadowRepo } from "./shadow-repo.js";

/** What a restore must do, split by the differences between now and the target. */
export interface RestorePlan {
  readonly write: string[];
  readonly remove: string[];
  readonly leftAlone: string[];
}

/**
 * Plans a restore from the safety snapshot (`current`) to `target`: differing files come
 * back, files created since go, and files either snapshot could not store (or that the
 * repository now ignores) are left alone.
 */
export async function planRestore(
  shadow: ShadowRepo,
  current: string,
  target: string,
  unstorable: ReadonlySet<string>,
): Promise<RestorePlan> {
  const changes = await compareTrees(shadow, current, target);
  const write: string[] = [];
  const remove: string[] = [];
  const leftAlone = new Set<string>(unstorable);
  const returning: string[] = [];
  for (const change of changes) {
    if (unstorable.has(change.path)) continue;
    if (change.status === "deleted") remove.push(change.path);
    else if (change.status === "added") returning.push(change.path);
    else write.push(change.path);
  }
  // A file absent now may be absent because it is ignored now: never write over it.
  if (returning.length > 0) {
    const out = await shadow.git(["check-ignore", "-z", "--stdin"], {
      input: `${returning.join("\0")}\0`,
      okCodes: [0, 1],
    });
    const ignored = new Set(splitNul(out.stdout));
    for (const path of returning) {
      if (ignored.has(path)) leftAlone.add(path);
      else write.push(path);
    }
  }
  return { write: write.sort(), remove, leftAlone: [...leftAlone].sort() };
}

async function removeEmptyParents(root: string, path: string): Promise<void> {
  let dir = dirname(path);
  while (dir !== "." && dir !== "") {
    const full = join(root, dir);
    try {
      if ((await readdir(full)).length > 0) return;
      await rmdir(full);
    } catch {
      return;
    }
    dir = dirname(dir);
  }
}

/**
 * Applies a plan: removes created files (and the folders that removal left empty), then
 * writes the differing files from `target` with git, modes and symlinks included.
 */
export async function applyRestore(shadow: ShadowRepo, target: string, plan: RestorePlan) {
  for (const path of plan.remove) {
    const full = join(shadow.projectRoot, path);
    const info = await lstat(full).catch(() => null);
    if (!info || info.isDirectory()) continue;
    await rm(full, { force: true });
    await removeEmptyParents(shadow.projectRoot, path);
  }
  if (plan.write.length > 0) {
    await shadow.git(
      [
        "--literal-pathspecs",
        "checkout",
        "--pathspec-from-file=-",
        "--pathspec-file-nul",
        target,
        "--",
      ],
      {
        input: `${plan.write.join("\0")}\0`,
      },
    );
  }
}
