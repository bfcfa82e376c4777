import { join } from "node:path";
import type { ProjectDirEntry, ProjectFileReader } from "@z-engine/protocol";

/** One folder of the project as discovery sees it: its plain files and subfolders by name. */
export interface Folder {
  /** Relative to the project root with `/` separators; `.` for the root. */
  readonly rel: string;
  readonly abs: string;
  readonly depth: number;
  readonly files: ReadonlySet<string>;
  readonly dirs: ReadonlySet<string>;
}

export interface WalkProblem {
  readonly path: string;
  readonly message: string;
}

export interface WalkOptions {
  readonly maxDepth: number;
  readonly ignoreDirs: ReadonlySet<string>;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Lists the folders from the root down to `maxDepth` levels below it through `reader` (the
 * project-files door), sorted by path (root first). Hidden folders, ignored names and
 * symlinked folders are not entered; symlinked files are not listed. A folder that cannot be
 * read below the root becomes a problem; the root failing rejects.
 */
export async function walkProject(
  root: string,
  reader: ProjectFileReader,
  options: WalkOptions,
): Promise<{ folders: Folder[]; problems: WalkProblem[] }> {
  const folders: Folder[] = [];
  const problems: WalkProblem[] = [];
  const rootEntries = await reader.list(root);
  if (rootEntries === undefined) throw new Error("not a folder that can be read");

  async function visit(
    rel: string,
    abs: string,
    depth: number,
    entries: readonly ProjectDirEntry[],
  ) {
    const files = new Set<string>();
    const dirs = new Set<string>();
    for (const entry of entries) {
      if (entry.kind === "file") files.add(entry.name);
      else if (entry.kind === "folder") dirs.add(entry.name);
    }
    folders.push({ rel, abs, depth, files, dirs });
    if (depth >= options.maxDepth || options.signal?.aborted) return;
    const children = [...dirs].filter((d) => !d.startsWith(".") && !options.ignoreDirs.has(d));
    await Promise.all(
      children.map(async (name) => {
        const childAbs = join(abs, name);
        const childRel = rel === "." ? name : `${rel}/${name}`;
        const childEntries = await reader.list(childAbs);
        if (childEntries === undefined) {
          problems.push({ path: childRel, message: "cannot read folder" });
          return;
        }
        await visit(childRel, childAbs, depth + 1, childEntries);
      }),
    );
  }

  await visit(".", root, 0, rootEntries);
  folders.sort((a, b) => comparePaths(a.rel, b.rel));
  problems.sort((a, b) => comparePaths(a.path, b.path));
  return { folders, problems };
}

/** Root first, then by path segments so that `a/b` sorts right after `a`. */
export function comparePaths(a: string, b: string): number {
  if (a === b) return 0;
  if (a === ".") return -1;
  if (b === ".") return 1;
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const left = x[i] ?? "";
    const right = y[i] ?? "";
    if (left !== right) return left < right ? -1 : 1;
  }
  return x.length - y.length;
}

export function describe(error: unknown): string {
  if (error instanceof Error)
    return "code" in error ? `${String(error.code)}: ${error.message}` : error.message;
  return String(error);
}
