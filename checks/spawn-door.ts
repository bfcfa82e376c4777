/**
 * The child-process door (issue 38): every process the engine starts goes through host's
 * `spawnChild` (`packages/host/src/process/spawn-child.ts`), which starts it from the
 * scrubbed environment in a folder its caller justified. This finds the code in packages/
 * and apps/ that could start a process past it: a value import (static, dynamic, `require`,
 * re-export) of a module that spawns. `import type` is fine (a type starts nothing).
 */
import { readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import { sourceFiles } from "./dependency-rule.js";

/** Modules whose import can start a process. */
export const SPAWNING_MODULES: readonly string[] = [
  "node:child_process",
  "child_process",
  "node:cluster",
  "cluster",
  "cross-spawn",
  "execa",
  "node-pty",
  "simple-git",
  // The SDK's stdio transport spawns its server itself (integrations has its own over the door).
  "@modelcontextprotocol/sdk/client/stdio",
  "@modelcontextprotocol/sdk/client/stdio.js",
];

/**
 * Files outside tests that may import a spawning module, each with its reason. An entry
 * that no longer imports one is reported too, so the list only shrinks.
 */
export const SPAWN_ALLOWED: Readonly<Record<string, string>> = {
  "packages/host/src/process/spawn-child.ts": "the door itself",
  "packages/host/src/git.ts": "git's runner (the git door, checks/git-door)",
  "packages/testkit/src/fixture-repo.ts": "the test kit's fixture repositories run git",
  "packages/testkit/src/mcp-test-server.ts":
    "the test kit starts its HTTP MCP test servers, as a remote host runs them (not the engine's process)",
  "packages/testkit/src/acp-client.ts":
    "the fake ACP editor starts the agent under test, as an editor does (not the engine's process)",
  "packages/testkit/src/acp-terminals.ts":
    "the fake ACP editor's own terminals (the client side of terminal/create, not the engine's)",
};

/** One import of a spawning module outside the door. */
export interface SpawnImport {
  readonly file: string;
  readonly line: number;
  readonly module: string;
}

/** Folders that hold tests, their support, benchmarks and build scripts (not shipped code). */
const TEST_DIRS = new Set(["test", "tests", "test-support", "bench", "scripts", "test-servers"]);

/** Whether a repository path is a test, test support, benchmark or build script. */
export function isTestPath(path: string): boolean {
  const parts = path.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  return (
    /\.test\.[cm]?[jt]sx?$/.test(name) ||
    /test[.-]helpers?\.[cm]?[jt]sx?$/.test(name) ||
    parts.slice(0, -1).some((p) => TEST_DIRS.has(p))
  );
}

function isSpawning(specifier: string): boolean {
  return SPAWNING_MODULES.includes(specifier);
}

function typeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import "x"` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}

function typeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return (
    clause !== undefined &&
    ts.isNamedExports(clause) &&
    clause.elements.length > 0 &&
    clause.elements.every((e) => e.isTypeOnly)
  );
}

/** The module a node imports as a value, if any. */
function valueImport(node: ts.Node): string | undefined {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
    return typeOnlyImport(node) ? undefined : node.moduleSpecifier.text;
  if (
    ts.isExportDeclaration(node) &&
    node.moduleSpecifier &&
    ts.isStringLiteral(node.moduleSpecifier)
  )
    return typeOnlyExport(node) ? undefined : node.moduleSpecifier.text;
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    const expr = node.moduleReference.expression;
    return !node.isTypeOnly && ts.isStringLiteral(expr) ? expr.text : undefined;
  }
  if (ts.isCallExpression(node)) {
    const [arg] = node.arguments;
    const callee = node.expression;
    const loads =
      callee.kind === ts.SyntaxKind.ImportKeyword ||
      (ts.isIdentifier(callee) && callee.text === "require") ||
      (ts.isPropertyAccessExpression(callee) && callee.name.text === "getBuiltinModule");
    if (loads && arg && ts.isStringLiteralLike(arg)) return arg.text;
  }
  return undefined;
}

/** The spawning modules `text` imports as values, with their 1-based lines. */
export function spawnImportsIn(file: string, text: string): SpawnImport[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: SpawnImport[] = [];
  const visit = (node: ts.Node) => {
    const module = valueImport(node);
    if (module !== undefined && isSpawning(module)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push({ file, line, module });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** What the check found in a repository. */
export interface SpawnDoorReport {
  /** Imports of a spawning module outside the door, tests and the allow-list. */
  readonly outside: readonly SpawnImport[];
  /** Allow-list entries that import no spawning module (any more): remove them. */
  readonly stale: readonly string[];
}

/** Runs the check over `root`'s packages/ and apps/ with `allowed` (default {@link SPAWN_ALLOWED}). */
export function checkSpawnDoor(
  root: string,
  allowed: Readonly<Record<string, string>> = SPAWN_ALLOWED,
): SpawnDoorReport {
  const outside: SpawnImport[] = [];
  const used = new Set<string>();
  for (const group of ["packages", "apps"]) {
    const base = join(root, group);
    const files = statSync(base, { throwIfNoEntry: false })?.isDirectory() ? sourceFiles(base) : [];
    for (const path of files) {
      const file = relative(root, path).split(sep).join("/");
      const found = spawnImportsIn(file, readFileSync(path, "utf8"));
      if (found.length === 0) continue;
      if (file in allowed) used.add(file);
      else if (!isTestPath(file)) outside.push(...found);
    }
  }
  return { outside, stale: Object.keys(allowed).filter((f) => !used.has(f)) };
}
