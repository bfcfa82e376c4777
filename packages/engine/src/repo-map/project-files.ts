import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { listRepositoryFiles } from "@z-engine/host";

/** The most files the repo map lists (beyond it the rest of the project is left out). */
export const MAX_PROJECT_FILES = 50_000;

// Left out of the map as they are of checkpoints: the engine's own folder (worktrees live there).
const ENGINE_FOLDER = ".z-engine/";

// Folders a walk outside git never enters (inside git, .gitignore decides).
const WALK_SKIP = new Set(["node_modules", "dist", "build", "target", "vendor", "__pycache__"]);

async function walk(root: string): Promise<string[]> {
  const out: string[] = [];
  const pending = [""];
  while (pending.length > 0 && out.length < MAX_PROJECT_FILES) {
    const dir = pending.pop() as string;
    const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !WALK_SKIP.has(entry.name)) pending.push(path);
      } else if (entry.isFile()) out.push(path);
    }
  }
  return out;
}

/**
 * The project's files for the repo map, relative to `root` with `/`: in a git repository
 * the tracked and untracked files its ignore rules keep (.gitignore, info/exclude, the
 * user's excludes file), else a walk that skips hidden and build folders; the engine's
 * `.z-engine/` folder is left out either way, as checkpoints leave out its worktrees.
 * Sorted, at most {@link MAX_PROJECT_FILES}. Never rejects.
 */
export async function listProjectFiles(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  // Through host's git door, like every engine git call: a read-only listing of the user's
  // repository (its own `core.excludesFile` applies, as for checkpoints).
  const listed = (await listRepositoryFiles(root, env)) ?? (await walk(root));
  const unique = [...new Set(listed)].filter((p) => !p.startsWith(ENGINE_FOLDER));
  return unique.sort().slice(0, MAX_PROJECT_FILES);
}
