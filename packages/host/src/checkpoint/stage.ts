import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { splitNul } from "../git.js";
import { type ShadowRepo, indexEntryCount } from "./shadow-repo.js";

/** Limits of what a snapshot stores. */
export interface StageLimits {
  readonly maxFiles: number;
  readonly maxFileBytes: number;
}

/** What staging the work tree into an index gave. */
export type StageResult =
  | { readonly files: number; readonly unstorable: readonly string[] }
  | { readonly disabled: string };

interface Candidates {
  readonly changed: string[];
  readonly deleted: Set<string>;
  readonly untracked: number;
}

async function listCandidates(shadow: ShadowRepo, indexFile: string): Promise<Candidates> {
  const out = await shadow.git(["ls-files", "-z", "-t", "-m", "-d", "-o", "--exclude-standard"], {
    indexFile,
  });
  const seen = new Set<string>();
  const changed: string[] = [];
  const deleted = new Set<string>();
  let untracked = 0;
  for (const entry of splitNul(out.stdout)) {
    const tag = entry.slice(0, 1);
    const path = entry.slice(2);
    // A nested repository is listed as a folder; it is left out like any .git folder.
    if (path.endsWith("/")) continue;
    if (tag === "R") deleted.add(path);
    if (tag === "?") untracked++;
    if (!seen.has(path)) {
      seen.add(path);
      changed.push(path);
    }
  }
  return { changed, deleted, untracked };
}

async function findTooLarge(
  root: string,
  paths: readonly string[],
  maxBytes: number,
): Promise<string[]> {
  const large: string[] = [];
  await Promise.all(
    paths.map(async (path) => {
      try {
        const info = await lstat(join(root, path));
        if (info.isFile() && info.size > maxBytes) large.push(path);
      } catch {
        // Gone since it was listed: update-index records the deletion.
      }
    }),
  );
  return large.sort();
}

/**
 * Brings `indexFile` up to date with the work tree without walking it twice: one
 * `ls-files -m -d -o` (changed, deleted and new files, ignores honoured), a size check of
 * just those, then `update-index` with exactly that list. Files over the size limit are not
 * stored (and dropped from the index if they were). Resolves to `disabled` without touching
 * the index when the tree holds more than `maxFiles` files.
 */
export async function stageWorkTree(
  shadow: ShadowRepo,
  indexFile: string,
  limits: StageLimits,
  ignoresChanged: boolean,
): Promise<StageResult> {
  const before = await indexEntryCount(indexFile);
  const { changed, deleted, untracked } = await listCandidates(shadow, indexFile);
  const total = before - deleted.size + untracked;
  if (total > limits.maxFiles) {
    return {
      disabled: `checkpoints are off: the project has ${total} files, more than ${limits.maxFiles}`,
    };
  }
  const present = changed.filter((path) => !deleted.has(path));
  const unstorable = await findTooLarge(shadow.projectRoot, present, limits.maxFileBytes);
  const skip = new Set(unstorable);
  const update = changed.filter((path) => !skip.has(path));
  if (update.length > 0) {
    await shadow.git(["update-index", "-z", "--add", "--remove", "--replace", "--stdin"], {
      indexFile,
      input: `${update.join("\0")}\0`,
    });
  }
  const dropped = [...unstorable];
  if (ignoresChanged || changed.some((path) => path.endsWith(".gitignore"))) {
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
  return { files: await indexEntryCount(indexFile), unstorable };
}
