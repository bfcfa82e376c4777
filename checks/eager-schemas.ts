/**
 * No package or app builds a zod schema when it is imported (issue 18): `zeng -p` runs every
 * package's top level before its first request, and a schema built there costs its start
 * whether or not the run uses it (the reply schemas of the decision layer, meta.json's, the
 * ids' were about 5 ms of it). A schema is built on first use instead (protocol's `lazily` or
 * `once`, tools' `lazySchema`, a function). This finds the calls of zod's builders that run
 * at a module's top level: outside every function, method and instance field.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One builder call that runs at import: file, 1-based line, and the call's text. */
export interface EagerSchema {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** The names `source` binds zod's `z` to (`import { z } from "zod"`, `import * as z`, `{ z as zod }`). */
function zodNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || statement.importClause?.isTypeOnly) continue;
    const from = statement.moduleSpecifier;
    if (!ts.isStringLiteral(from) || !/^zod(\/|$)/.test(from.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements)
        if (!element.isTypeOnly && (element.propertyName ?? element.name).text === "z")
          names.add(element.name.text);
  }
  return names;
}

/** Whether `node`'s code runs later than the module's top level (a function body, an instance field). */
function deferred(node: ts.Node): boolean {
  if (ts.isFunctionLike(node)) return true;
  return (
    ts.isPropertyDeclaration(node) &&
    !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)
  );
}

/** The zod builder calls in `text` (a module's source) that run when it is imported. */
export function eagerSchemasIn(file: string, text: string): EagerSchema[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const names = zodNames(source);
  if (names.size === 0) return [];
  const zodCall = (node: ts.Node): boolean =>
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ts.isIdentifier(node.expression.expression) &&
    names.has(node.expression.expression.text);
  // Whether running `node` builds a schema (what its nested functions would build comes later).
  const builds = (node: ts.Node): boolean =>
    zodCall(node) || (!deferred(node) && (ts.forEachChild(node, builds) ?? false));
  const helpers = localBuilders(source, builds);
  const found: EagerSchema[] = [];
  const visit = (node: ts.Node): void => {
    if (deferred(node)) return;
    const call =
      zodCall(node) ||
      (ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        helpers.has(node.expression.text));
    if (!call) return void ts.forEachChild(node, visit);
    // The outermost call only: `z.object({ a: z.string() })` is one schema built.
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push({ file, line: line + 1, text: node.getText(source).split("\n")[0] ?? "" });
  };
  visit(source);
  return found;
}

/**
 * The module's own functions whose bodies build a schema (`const id = (brand) => z.string()`,
 * `function event(...) { return z.object(...) }`): calling one at the top level builds it.
 */
function localBuilders(source: ts.SourceFile, builds: (node: ts.Node) => boolean): Set<string> {
  const helpers = new Set<string>();
  for (const statement of source.statements) {
    if (
      ts.isFunctionDeclaration(statement) &&
      statement.name &&
      statement.body &&
      builds(statement.body)
    )
      helpers.add(statement.name.text);
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const value = declaration.initializer;
      if (
        ts.isIdentifier(declaration.name) &&
        value &&
        (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) &&
        builds(value.body)
      )
        helpers.add(declaration.name.text);
    }
  }
  return helpers;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.(test|bench)\.tsx?$|\.d\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/**
 * The eager builder calls in the sources (`src/`, tests left out) of every package and app
 * under `root` (`packages/*`, `apps/*`).
 */
export function eagerSchemas(root: string): EagerSchema[] {
  return ["packages", "apps"]
    .flatMap((group) =>
      readdirSync(join(root, group)).map((name) => join(root, group, name, "src")),
    )
    .filter((src) => statSync(src, { throwIfNoEntry: false })?.isDirectory())
    .flatMap(sourceFiles)
    .flatMap((file) => eagerSchemasIn(relative(root, file), readFileSync(file, "utf8")));
}
