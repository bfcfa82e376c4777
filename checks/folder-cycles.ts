/**
 * Folder layering inside one package (issue 39). A file's folder is its first path segment
 * under `src` (files directly in `src` are "(root)"); folder A imports folder B when a file of
 * A imports a file of B. Imports are read as `file-cycles.ts` reads them: every relative
 * import, `import type` and re-exports included. Tests (`*.test.ts`) do not count.
 *
 * A package's folders follow an ORDER, lowest first: a folder may import only folders below
 * it. `ENGINE_FOLDER_ORDER` is the engine's (quoted in its README). An import that has to go
 * up for a while is listed in `ENGINE_UPWARD_ALLOWED` (file -> file, relative to `src`; empty
 * today); the check reports a listed import that is gone, so the list only shrinks.
 */
import { relative, sep } from "node:path";
import { sourceFiles } from "./dependency-rule.js";
import { fileImports, stronglyConnected } from "./file-cycles.js";

/** The folder name of files directly in `src`. */
export const ROOT_FOLDER = "(root)";

/** The engine's folders, lowest first: a folder may import only the folders before it. */
export const ENGINE_FOLDER_ORDER: readonly string[] = [
  "util",
  "journal",
  "launch",
  "environment",
  "definitions",
  "sidecars",
  "format",
  "history",
  "repo-map",
  "hooks",
  "telemetry",
  "mcp",
  "lsp",
  "settings",
  "core",
  "decisions",
  "verification",
  "batch",
  "run",
  "ports",
  "agents",
  "commands",
  "session",
  "queries",
  "structured",
  "doctor",
  ROOT_FOLDER,
  "test-support",
];

/**
 * The engine's imports that still go up the order (`from -> to`, paths relative to
 * `packages/engine/src`). Each is a debt: remove it by moving the shared type or helper down,
 * or by passing the function in; then delete its line here. Empty since issue 39.
 */
export const ENGINE_UPWARD_ALLOWED: readonly string[] = [];

/** One import from a file of one folder to a file of another. */
export interface FolderImport {
  /** Importing file, relative to `src`. */
  readonly from: string;
  /** Imported file, relative to `src`. */
  readonly to: string;
  readonly fromFolder: string;
  readonly toFolder: string;
}

/** The folder of a file given relative to `src`. */
export const folderOf = (path: string): string => {
  const parts = path.split(sep);
  return parts.length > 1 ? (parts[0] as string) : ROOT_FOLDER;
};

const isTest = (path: string): boolean => /\.test\.[cm]?[jt]sx?$/.test(path);

/** Every import between two folders of the package whose sources are in `src`, sorted. */
export function folderImports(src: string): FolderImport[] {
  const files = sourceFiles(src).filter((f) => !isTest(f));
  const out: FolderImport[] = [];
  for (const [file, targets] of fileImports(files)) {
    const from = relative(src, file);
    for (const target of targets) {
      const to = relative(src, target);
      const fromFolder = folderOf(from);
      const toFolder = folderOf(to);
      if (fromFolder !== toFolder) out.push({ from, to, fromFolder, toFolder });
    }
  }
  return out.sort((a, b) => formatImport(a).localeCompare(formatImport(b)));
}

/** `from -> to`, as `ENGINE_UPWARD_ALLOWED` lists an import. */
export const formatImport = (edge: FolderImport): string => `${edge.from} -> ${edge.to}`;

/** The folder cycles of the package in `src`: its strongly connected folder groups (sorted). */
export function folderCycles(src: string): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles(src).filter((f) => !isTest(f))) {
    edges.set(folderOf(relative(src, file)), new Set());
  }
  for (const edge of folderImports(src)) edges.get(edge.fromFolder)?.add(edge.toFolder);
  const graph = new Map([...edges].map(([folder, to]) => [folder, [...to].sort()]));
  return stronglyConnected(graph)
    .filter((group) => group.length > 1)
    .sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** What `checkFolderOrder` finds. */
export interface FolderOrderReport {
  /** Imports that go up the order and are not allowed (`from -> to (fromFolder -> toFolder)`). */
  readonly upward: string[];
  /** Allowed upward imports that no longer exist (delete them from the list). */
  readonly staleAllowed: string[];
  /** Folders of the package that the order does not name. */
  readonly unorderedFolders: string[];
}

/** Checks that the folders of the package in `src` follow `order`, outside `allowed`. */
export function checkFolderOrder(
  src: string,
  order: readonly string[],
  allowed: readonly string[],
): FolderOrderReport {
  const rank = new Map(order.map((folder, i) => [folder, i]));
  const imports = folderImports(src);
  const folders = new Set(sourceFiles(src).map((f) => folderOf(relative(src, f))));
  const unorderedFolders = [...folders].filter((f) => !rank.has(f)).sort();
  const goingUp = imports.filter(
    (e) => (rank.get(e.toFolder) ?? -1) > (rank.get(e.fromFolder) ?? order.length),
  );
  const up = new Set(goingUp.map(formatImport));
  return {
    upward: goingUp
      .filter((e) => !allowed.includes(formatImport(e)))
      .map((e) => `${formatImport(e)} (${e.fromFolder} -> ${e.toFolder})`),
    staleAllowed: allowed.filter((line) => !up.has(line)),
    unorderedFolders,
  };
}

/**
 * Packages and apps (by folder, e.g. `packages/host`) whose `src` still has a folder cycle,
 * outside the engine (which its order covers). Any other package with one fails the check; a
 * listed one without a cycle fails too, so the list only shrinks.
 */
export const FOLDER_CYCLE_EXCEPTIONS: readonly string[] = [
  "apps/cli",
  "packages/context",
  "packages/host",
  "packages/integrations",
  "packages/llm",
  "packages/testkit",
  "packages/tools",
  "packages/verify",
];
