/**
 * File-level import cycles inside one package. A cycle is a strongly connected group of
 * files joined by relative imports; it is reported once, as a path through its files.
 *
 * Every import counts, `import type` included (static, dynamic, type-only, re-exports: the
 * same list `importsOf` reads). A type-only circle cannot break start-up order, but it is the
 * same design smell as a value one (two files that cannot be read or moved apart; a
 * half-split module), and the fix is always cheap: move the shared type to the file both
 * depend on, or to a small file of its own.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

/** Every module specifier a file imports, as `importsOf` in dependency-rule.ts reads them. */
const specifiersOf = (text: string): string[] =>
  ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);

/** The file a relative specifier names (`./x.js` is `./x.ts` in source), if it is one of `files`. */
function resolveRelative(from: string, specifier: string, files: Set<string>): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?js$/, "");
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.cts`,
    `${base}/index.ts`,
  ];
  return candidates.find((c) => files.has(c) && existsSync(c));
}

/**
 * The relative imports among `files` (absolute paths of one package): each file to the sorted
 * files of `files` it imports (every import, type-only included; itself left out).
 */
export function fileImports(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiersOf(readFileSync(file, "utf8"))
      .map((s) => resolveRelative(file, s, known))
      .filter((t): t is string => t !== undefined && t !== file);
    edges.set(file, [...new Set(targets)].sort());
  }
  return edges;
}

/**
 * The import cycles among `files` (absolute paths of one package), each as a list of file
 * paths relative to `root` that returns to its first file. Empty when there is none.
 */
export function fileCycles(files: readonly string[], root: string): string[][] {
  const edges = fileImports(files);
  return stronglyConnected(edges)
    .filter((group) => group.length > 1)
    .map((group) => pathThrough(group, edges).map((f) => relative(root, f)));
}

/** Tarjan's algorithm: the strongly connected groups of the graph, each sorted. */
export function stronglyConnected(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      groups.push(group.sort());
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** A cycle through a strongly connected group, from its first file back to it (breadth-first, so shortest). */
function pathThrough(group: readonly string[], edges: Map<string, string[]>): string[] {
  const members = new Set(group);
  const start = group[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const to of edges.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...group, start];
}
