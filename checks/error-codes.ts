/**
 * Error codes in one casing (issue 39): every code an error class carries is camelCase, with
 * dotted segments for a namespace (`notFound`, `agentSdk.aborted`), like the notice codes.
 * The codes are read where they are declared: the string literals of a `...ErrorCode` type,
 * and a `code` property an error class (named `...Error`, or extending one) sets to a literal.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import ts from "typescript";
import { packageSources } from "./size-limits.js";

const CAMEL = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)*$/;

/** Whether `code` is in the one casing. */
export const isCamelCode = (code: string): boolean => CAMEL.test(code);

/** A class named `...Error`, or one that extends an `...Error` (`Error` itself included). */
function isErrorClass(node: ts.ClassLikeDeclaration, source: ts.SourceFile): boolean {
  if (node.name?.text.endsWith("Error")) return true;
  return (node.heritageClauses ?? []).some((h) =>
    h.types.some((t) => t.expression.getText(source).endsWith("Error")),
  );
}

/** The error codes `text` declares, each with its line. */
export function errorCodesIn(file: string, text: string): { code: string; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: { code: string; line: number }[] = [];
  const add = (node: ts.StringLiteral) =>
    out.push({
      code: node.text,
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
    });
  const visit = (node: ts.Node): void => {
    if (ts.isTypeAliasDeclaration(node) && node.name.text.endsWith("ErrorCode")) {
      const literals = (n: ts.Node): void => {
        if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) add(n.literal);
        ts.forEachChild(n, literals);
      };
      literals(node.type);
    }
    if (
      ts.isPropertyDeclaration(node) &&
      node.name.getText(source) === "code" &&
      node.initializer !== undefined &&
      ts.isStringLiteral(node.initializer) &&
      ts.isClassLike(node.parent) &&
      isErrorClass(node.parent, source)
    )
      add(node.initializer);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** The codes under `root` not in the one casing, each as `path:line code`. */
export function miscasedErrorCodes(root: string): string[] {
  return packageSources(root).flatMap((path) => {
    const file = relative(root, path).split("\\").join("/");
    return errorCodesIn(file, readFileSync(path, "utf8"))
      .filter((c) => !isCamelCode(c.code))
      .map((c) => `${file}:${c.line} ${c.code}`);
  });
}
