import { type Stats, lstatSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { splitNul } from "../git.js";
import type { ShadowRepo } from "./shadow-repo.js";

/** Limits of what a snapshot stores. */
export interface StageLimits {
  readonly maxFiles: number;
  readonly maxFileBytes: number;
}

/** What is to be staged: the paths to bring up to date in the index, and those not stored. */
export type StagePlan =
  | { readonly update: readonly string[]; readonly unstorable: readonly string[] }
  | { readonly disabled: string };

interface Candidates {
  readonly changed: string[];
  readonly deleted: Set<string>;
  readonly untracked: Set<string>;
}

async function listCandidates(
  shadow: ShadowRepo,
  indexFile: string,
  listed: Buffer | undefined,
): Promise<Candidates> {
  const stdout =
    listed ??
    (
      await shadow.git(["ls-files", "-z", "-t", "-m", "-d", "-o", "--exclude-standard"], {
        indexFile,
      })
    ).stdout;
  const seen = new Set<string>();
  const changed: string[] = [];
  const deleted = new Set<string>();
  const untracked = new Set<string>();
  for (const entry of splitNul(stdout)) {
    const tag = entry.slice(0, 1);
    const path = entry.slice(2);
    // A nested repository is listed as a folder; it is left out like any .git folder.
    if (path.endsWith("/")) continue;
    if (tag === "R") deleted.add(path);
    if (tag === "?") untracked.add(path);
    if (!seen.has(path)) {
      seen.add(path);
      changed.push(path);
    }
  }
  return { changed, deleted, untracked };
}

/** Up to this many paths are checked synchronously (see findTooLarge). */
const SYNC_CHECKS = 256;

async function findTooLarge(
  root: string,
  paths: readonly string[],
  maxBytes: number,
): Promise<string[]> {
  const large: string[] = [];
  const check = (info: Stats | undefined, path: string) => {
    if (info?.isFile() && info.size > maxBytes) large.push(path);
  };
  if (paths.length <= SYNC_CHECKS) {
    // A few lstat calls cost microseconds; each asynchronous one waits for the thread pool
    // and an event loop the first model response keeps busy (see ShadowRepo.writeInfo).
    // Gone since it was listed: update-index records the deletion.
    for (const path of paths) {
      try {
        check(lstatSync(join(root, path), { throwIfNoEntry: false }), path);
      } catch {
        // Unreadable now (a folder on its path became a file): update-index decides.
      }
    }
    return large.sort();
  }
  await Promise.all(
    paths.map(async (path) => check(await lstat(join(root, path)).catch(() => undefined), path)),
  );
  return large.sort();
}

/**
 * Plans bringing `indexFile` up to date with the work tree without walking it twice: one
 * `ls-files -m -d -o` (changed, deleted and new files, ignores honoured) and a size check of
 * just those. Files over the size limit are never hashed: they are left out of the plan, and
 * a tracked one (it grew) leaves the index here, as do tracked files the ignores now cover
 * when they changed. Resolves to `disabled` without touching the index when the tree holds
 * more than `maxFiles` files. `listed` is that `ls-files` output when it was taken already
 * (against `indexFile`). Rejects with a `HostError` when git fails.
 */
export async function planStage(
  shadow: ShadowRepo,
  indexFile: string,
  limits: StageLimits,
  ignoresChanged: boolean,
  listed?: Buffer,
): Promise<StagePlan> {
  const [before, candidates] = await Promise.all([
    shadow.countEntries(indexFile),
    listCandidates(shadow, indexFile, listed),
  ]);
  const { changed, deleted, untracked } = candidates;
  const total = before - deleted.size + untracked.size;
  if (total > limits.maxFiles) {
    return {
      disabled: `checkpoints are off: the project has ${total} files, more than ${limits.maxFiles}`,
    };
  }
  const present = changed.filter((path) => !deleted.has(path));
  const unstorable = await findTooLarge(shadow.projectRoot, present, limits.maxFileBytes);
  const dropped = unstorable.filter((path) => !untracked.has(path));
  // A new index (nothing tracked yet) holds no file the ignores could now cover.
  const rules = ignoresChanged || changed.some((path) => path.endsWith(".gitignore"));
  if (rules && before > 0) {
    // Files git lists as new are never ignored, so the index as it is tells which are.
    const ignored = await shadow.git(["ls-files", "-z", "-c", "-i", "--exclude-standard"], {
      indexFile,
    });
    dropped.push(...splitNul(ignored.stdout));
  }
  if (dropped.length > 0) {
    await shadow.git(["update-index", "-z", "--force-remove", "--stdin"], {
      indexFile,
      input: `${dropped.join("\0")}\0`,
    });
  }
  const skip = new Set([...unstorable, ...dropped]);
  return { update: changed.filter((path) => !skip.has(path)), unstorable };
}
