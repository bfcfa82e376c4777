/**
 * The one-way dependency rule of design.md §1, as a function over a repository: which
 * `@z-engine/*` package may import which, checked in every package.json and in every
 * import (static, dynamic, `import type`, re-export) under packages/, apps/ and bench/; and no
 * import cycle between the files of one package (file-cycles.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { fileCycles } from "./file-cycles.js";

/** For each package (folder name), the workspace packages it may import. */
export type DependencyTable = Readonly<Record<string, readonly string[]>>;

const ALL_LOWER = [
  "protocol",
  "prompts",
  "policy",
  "config",
  "store",
  "llm",
  "host",
  "verify",
  "integrations",
  "context",
  "tools",
];

/** The table of design.md §1. */
export const DEPENDENCY_TABLE: DependencyTable = {
  protocol: [],
  prompts: ["protocol"],
  policy: ["protocol"],
  config: ["protocol", "policy"],
  store: ["protocol"],
  llm: ["protocol"],
  host: ["protocol"],
  verify: ["protocol"],
  integrations: ["protocol"],
  context: ["protocol", "prompts"],
  tools: ["protocol", "policy", "host", "prompts"],
  engine: ALL_LOWER,
  testkit: ["protocol", "store"],
  "store-postgres": ["protocol", "store"],
  worker: ["engine", "config", "protocol", "store"],
  acp: ["engine", "config", "protocol"],
  "mcp-server": ["engine", "config", "protocol"],
  cli: ["engine", "config", "protocol", "testkit", "acp", "mcp-server"],
  web: ["engine", "config", "protocol", "testkit"],
  // bench/reliability: the durability harnesses, a private top-level consumer like an app
  // (it starts the CLI's bin as a process; cli is a devDependency for the build order).
  reliability: ["engine", "config", "protocol", "store", "store-postgres", "llm", "testkit", "cli"],
};

/** The package that any package but protocol may use in its tests, as a devDependency. */
export const TEST_ONLY_PACKAGE = "testkit";
const TEST_ONLY_FORBIDDEN = new Set(["protocol", "store", "testkit"]);

/**
 * Further edges allowed in tests only (devDependencies, test files): the worker's tests and
 * bench run it on the store it is deployed with, Postgres.
 */
export const TEST_ONLY_EDGES: DependencyTable = { worker: ["store-postgres"] };

/** Whether `from` may use `target` in its tests only (testkit, or a `TEST_ONLY_EDGES` entry). */
const testOnly = (from: string, target: string) =>
  (target === TEST_ONLY_PACKAGE && !TEST_ONLY_FORBIDDEN.has(from)) ||
  (TEST_ONLY_EDGES[from]?.includes(target) ?? false);

export interface Violation {
  readonly kind: "edge" | "cycle" | "file-cycle" | "deep-import" | "unknown-package";
  /** The file where it was found, relative to the repository root. */
  readonly file: string;
  readonly message: string;
}

interface WorkspacePackage {
  readonly name: string; // folder name, e.g. "protocol"
  readonly dir: string;
  readonly manifest: Record<string, unknown>;
}

const SCOPE = "@z-engine/";
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SKIP_DIRS = new Set(["node_modules", "dist", ".turbo", "coverage", "fixtures"]);

function listPackages(root: string): WorkspacePackage[] {
  const out: WorkspacePackage[] = [];
  for (const group of ["packages", "apps", "bench"]) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base)) {
      const file = join(base, entry, "package.json");
      if (!existsSync(file)) continue;
      out.push({
        name: entry,
        dir: join(base, entry),
        manifest: JSON.parse(readFileSync(file, "utf8")),
      });
    }
  }
  return out;
}

/** Every source file under `dir` (not node_modules, dist, fixtures, ...; no `.d.ts`). */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIP_DIRS.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(entry) && !entry.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** Every module specifier a file imports: static, dynamic, `import type`, `export from`, require. */
export function importsOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

const isTestFile = (path: string) =>
  /\.test\.[cm]?[jt]sx?$/.test(path) ||
  path.split(sep).some((p) => p === "test" || p === "bench" || p === "test-support");

function packageOf(specifier: string): { pkg: string; subpath: string } | undefined {
  if (!specifier.startsWith(SCOPE)) return undefined;
  const rest = specifier.slice(SCOPE.length);
  const slash = rest.indexOf("/");
  return slash === -1
    ? { pkg: rest, subpath: "" }
    : { pkg: rest.slice(0, slash), subpath: rest.slice(slash) };
}

function checkManifest(
  pkg: WorkspacePackage,
  root: string,
  table: DependencyTable,
  edges: Map<string, Set<string>>,
): Violation[] {
  const out: Violation[] = [];
  const file = relative(root, join(pkg.dir, "package.json"));
  for (const field of [
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
  ]) {
    const deps = (pkg.manifest[field] ?? {}) as Record<string, string>;
    for (const dep of Object.keys(deps)) {
      const target = packageOf(dep)?.pkg;
      if (target === undefined) continue;
      const allowed = table[pkg.name] ?? [];
      const devTestkit = field === "devDependencies" && testOnly(pkg.name, target);
      if (!allowed.includes(target) && !devTestkit) {
        out.push({
          kind: "edge",
          file,
          message: `${field}: @z-engine/${pkg.name} -> @z-engine/${target} is not allowed (may import: ${allowed.join(", ") || "nothing"})`,
        });
      }
      if (!devTestkit) edges.get(pkg.name)?.add(target);
    }
  }
  return out;
}

function checkImport(
  pkg: WorkspacePackage,
  file: string,
  specifier: string,
  ctx: {
    root: string;
    table: DependencyTable;
    packages: WorkspacePackage[];
    edges: Map<string, Set<string>>;
  },
): Violation | undefined {
  const rel = relative(ctx.root, file);
  const scoped = packageOf(specifier);
  if (scoped !== undefined) {
    if (scoped.subpath !== "") {
      return {
        kind: "deep-import",
        file: rel,
        message: `imports ${specifier}: only @z-engine/${scoped.pkg} (its index.ts) is public`,
      };
    }
    if (scoped.pkg === pkg.name) return undefined;
    if (!ctx.packages.some((p) => p.name === scoped.pkg)) {
      return {
        kind: "unknown-package",
        file: rel,
        message: `imports ${specifier}, which is not a workspace package`,
      };
    }
    const allowed = ctx.table[pkg.name] ?? [];
    const testkitInTest = testOnly(pkg.name, scoped.pkg) && isTestFile(file);
    if (!testkitInTest) ctx.edges.get(pkg.name)?.add(scoped.pkg);
    if (!allowed.includes(scoped.pkg) && !testkitInTest) {
      return {
        kind: "edge",
        file: rel,
        message: `@z-engine/${pkg.name} -> @z-engine/${scoped.pkg} is not allowed (may import: ${allowed.join(", ") || "nothing"})`,
      };
    }
    return undefined;
  }
  if (specifier.startsWith(".")) {
    const target = resolve(dirname(file), specifier);
    const other = ctx.packages.find(
      (p) => p.dir !== pkg.dir && (target === p.dir || target.startsWith(p.dir + sep)),
    );
    if (other !== undefined) {
      return {
        kind: "deep-import",
        file: rel,
        message: `imports ${specifier}, a path inside @z-engine/${other.name}: import "@z-engine/${other.name}" instead`,
      };
    }
  }
  return undefined;
}

function findCycles(edges: Map<string, Set<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "visiting");
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === "visiting") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...edges.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Checks a repository; returns every violation found (empty when the rule holds). */
export function checkDependencyRule(
  root: string,
  table: DependencyTable = DEPENDENCY_TABLE,
): Violation[] {
  const packages = listPackages(root);
  const edges = new Map(packages.map((p) => [p.name, new Set<string>()]));
  const violations: Violation[] = [];
  for (const pkg of packages) {
    if (!(pkg.name in table)) {
      violations.push({
        kind: "unknown-package",
        file: relative(root, pkg.dir),
        message: `@z-engine/${pkg.name} is not in the dependency table`,
      });
    }
    violations.push(...checkManifest(pkg, root, table, edges));
    const files = sourceFiles(pkg.dir);
    for (const cycle of fileCycles(files, root)) {
      violations.push({
        kind: "file-cycle",
        file: cycle[0] as string,
        message: `import cycle inside @z-engine/${pkg.name}: ${cycle.join(" -> ")}`,
      });
    }
    for (const file of files) {
      for (const specifier of importsOf(readFileSync(file, "utf8"))) {
        const violation = checkImport(pkg, file, specifier, { root, table, packages, edges });
        if (violation) violations.push(violation);
      }
    }
  }
  for (const cycle of findCycles(edges)) {
    violations.push({
      kind: "cycle",
      file: relative(root, join(root, "packages")),
      message: `dependency cycle: ${cycle.map((n) => `@z-engine/${n}`).join(" -> ")}`,
    });
  }
  return violations;
}

/** One line per violation: `file: message`. */
export const formatViolations = (violations: readonly Violation[]): string =>
  violations.map((v) => `${v.file}: [${v.kind}] ${v.message}`).join("\n");
