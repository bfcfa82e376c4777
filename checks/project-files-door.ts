/**
 * The project-files door (issue 38): every file a project controls that the engine reads for
 * the model (instruction files and their imports, agent, command, skill, output-style and rule
 * definitions, a command's `@path` includes, the repo map, the decision layer's documents,
 * check discovery's build files, the files language servers are sent and quoted from)
 * goes through one reader, host's `createProjectFileReader` (real path inside the allowed
 * roots, no link followed that it did not admit, regular files only, bounded reads, the Read
 * rules). Before it, each of those had its own `readFile`, and each was a way around the rules
 * the others kept (a linked SKILL.md, an output style named `../../x`, a repo map following a
 * committed link, a FIFO that held the session).
 *
 * This finds the modules that can read file contents or folder listings with `node:fs`
 * themselves: an import from `node:fs`, `node:fs/promises`, `fs` or `fs/promises` of a reading
 * function (or of the whole module), a dynamic `import()` of one, or a `require` of one.
 * Metadata calls (`stat`, `lstat`, `realpath`, `existsSync`, `access`) and writes are not
 * reads of what a file holds, so they are not counted. The check watches the packages that
 * read what a project controls for the model: context, engine, integrations, prompts, tools
 * and verify (their `src/`, tests and test helpers left out). Every module it finds there must be on the
 * allow-list in `project-files-door.test.ts`, with the reason it is not a way around the door.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** The packages whose sources are watched. */
export const WATCHED_PACKAGES = [
  "context",
  "engine",
  "integrations",
  "prompts",
  "tools",
  "verify",
] as const;

/** `node:fs` functions that read what a file holds, or what a folder lists. */
export const READING_FUNCTIONS: ReadonlySet<string> = new Set([
  "readFile",
  "readFileSync",
  "readdir",
  "readdirSync",
  "open",
  "openSync",
  "opendir",
  "opendirSync",
  "createReadStream",
  "read",
  "readSync",
  "readv",
  "readvSync",
  "copyFile",
  "copyFileSync",
  "cp",
  "cpSync",
  "promises",
]);

const FS_MODULES = /^(node:)?fs(\/promises)?$/;

/** One module that reads with `node:fs` directly, and what it takes for that. */
export interface DirectRead {
  /** Repository-relative path, with `/`. */
  readonly file: string;
  /** The reading functions it imports (`*` for the whole module, `import()`, `require`). */
  readonly names: readonly string[];
}

function fsSpecifier(node: ts.Expression | undefined): boolean {
  return node !== undefined && ts.isStringLiteralLike(node) && FS_MODULES.test(node.text);
}

/** What an import declaration from a file-system module takes that reads. */
function importedReaders(statement: ts.ImportDeclaration): string[] {
  const clause = statement.importClause;
  if (!clause || clause.isTypeOnly) return [];
  const names: string[] = [];
  if (clause.name) names.push("*");
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) names.push("*");
  if (bindings && ts.isNamedImports(bindings))
    for (const element of bindings.elements) {
      const name = (element.propertyName ?? element.name).text;
      if (!element.isTypeOnly && READING_FUNCTIONS.has(name)) names.push(name);
    }
  return names;
}

/** The reading functions a module's text takes from `node:fs` (empty: none). */
export function directReadsIn(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && fsSpecifier(node.moduleSpecifier))
      names.push(...importedReaders(node));
    if (ts.isExportDeclaration(node) && fsSpecifier(node.moduleSpecifier) && !node.isTypeOnly)
      names.push("export from");
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const first = node.arguments[0];
      if (callee.kind === ts.SyntaxKind.ImportKeyword && fsSpecifier(first)) names.push("import()");
      if (ts.isIdentifier(callee) && callee.text === "require" && fsSpecifier(first))
        names.push("require");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...new Set(names)].sort();
}

const SKIPPED = /(\.test\.ts|\.test\.helper\.ts|test-helper[^/]*\.ts|\.d\.ts)$/;

function sourcesUnder(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== "node_modules" && name !== "test-support") sourcesUnder(path, out);
    } else if (name.endsWith(".ts") && !SKIPPED.test(name)) out.push(path);
  }
}

/** Every watched module that reads with `node:fs` directly, sorted by path. */
export function directReads(repoRoot: string): DirectRead[] {
  const files: string[] = [];
  for (const pkg of WATCHED_PACKAGES) sourcesUnder(join(repoRoot, "packages", pkg, "src"), files);
  return files.flatMap((path) => {
    const names = directReadsIn(path, readFileSync(path, "utf8"));
    const file = relative(repoRoot, path).split("\\").join("/");
    return names.length === 0 ? [] : [{ file, names }];
  });
}
