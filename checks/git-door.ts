/**
 * The git door (issue 38): every git process the engine starts goes through host's
 * `runGit` / `runGitScript` (`packages/host/src/git.ts`), which names the repository of each
 * call, runs only read-only commands on the user's repository, refuses an engine repository
 * whose config the engine did not write, and builds the hardened command line. This finds
 * code anywhere in `packages/` and `apps/` (sources, tests, benches, scripts) that starts git
 * past the door:
 *
 * - an import (static, dynamic or `require`) of `simple-git`;
 * - a call of a process starter (`spawn`, `spawnSync`, `exec`, `execSync`, `execFile`,
 *   `execFileSync`, `fork`, `execa`..., a `promisify`d one, or any call whose arguments are
 *   `"git"` and an argument list) whose program is `git` (or a path ending in `/git`), whose
 *   shell command line calls git, or whose program is a shell (`sh`, `bash`, ...) given a
 *   script (a literal, or a `const` of the file) that calls git;
 * - a `command:` property whose text calls git (a shell command handed to a runner);
 * - a call of host's `safeGitCommand` (the door's own builder: its result is for the door to
 *   start).
 *
 * Tests and test support may run plain git to build and inspect fixture repositories (the
 * hostile-repository tests prove their plants live that way): {@link ALLOWED} lists them,
 * each with its reason.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/** One place that starts git outside the door: file, 1-based line, what it does. */
export interface GitDoorBreach {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** Files (or patterns, `*` within a name, `**` across folders) allowed to start git directly. */
export const ALLOWED: readonly { readonly pattern: string; readonly reason: string }[] = [
  { pattern: "packages/host/src/git.ts", reason: "the door itself" },
  { pattern: "**/*.test.ts", reason: "tests build and inspect fixture repositories" },
  {
    pattern: "packages/testkit/src/fixture-repo.ts",
    reason: "testkit's fixture repositories (test support)",
  },
  {
    pattern: "packages/host/src/test-support/**",
    reason: "the hostile repository fixture (test support)",
  },
  {
    pattern: "packages/engine/scripts/public-data/build.ts",
    reason:
      "a maintainer's script, run by hand, that reads blobs of the bare mirrors it is given (SOURCE.md); never a project's repository",
  },
  {
    pattern: "packages/*/bench/**",
    reason: "benchmarks build fixture repositories and time raw git as their baseline",
  },
];

const STARTERS = new Set([
  "spawn",
  "spawnSync",
  "exec",
  "execSync",
  "execFile",
  "execFileSync",
  "fork",
  "execa",
  "execaSync",
  "execaCommand",
  "execaCommandSync",
]);
/** Starters whose first argument is a shell command line, not a program. */
const COMMAND_LINES = new Set(["exec", "execSync", "execaCommand", "execaCommandSync"]);
const SHELLS = /^(\/(usr\/)?bin\/)?(sh|bash|zsh|dash|ksh)$/;
/** `git` as a command word of a shell text. */
const GIT_WORD = /(^|[\s;&|(`$"'])git(\s|$)/m;
const isGitProgram = (text: string) => text === "git" || text.endsWith("/git");

function toRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split("**/")
    .map((part) =>
      part
        .split("**")
        .map((p) => p.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
        .join(".*"),
    )
    .join("(.*/)?");
  return new RegExp(`^${escaped}$`);
}

/** Whether `file` (repository-relative, `/`-separated) is on {@link ALLOWED}. */
export function allowed(file: string): boolean {
  return ALLOWED.some(({ pattern }) => toRegExp(pattern).test(file));
}

/** The texts of a file's top-level and block `const x = "..."` / template declarations. */
function constTexts(source: ts.SourceFile): Map<string, string> {
  const texts = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      ts.isVariableDeclarationList(node.parent) &&
      node.parent.flags & ts.NodeFlags.Const
    ) {
      const text = literalText(node.initializer, new Map());
      if (text !== null) texts.set(node.name.text, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

/** A string literal's or template's text (substitutions as spaces), a known const's, or null. */
function literalText(node: ts.Node, consts: ReadonlyMap<string, string>): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node))
    return [node.head.text, ...node.templateSpans.map((s) => ` ${s.literal.text}`)].join("");
  if (ts.isIdentifier(node)) return consts.get(node.text) ?? null;
  return null;
}

/** The names a file binds to a starter: the starters themselves and `promisify(starter)`s. */
function starterNames(source: ts.SourceFile): Map<string, string> {
  const names = new Map<string, string>([...STARTERS].map((s) => [s, s]));
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const init = node.initializer;
      if (ts.isCallExpression(init) && calleeName(init) === "promisify") {
        const inner = init.arguments[0] ? calleeNameOf(init.arguments[0]) : null;
        if (inner && STARTERS.has(inner)) names.set(node.name.text, inner);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

function calleeNameOf(expression: ts.Node): string | null {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return null;
}

const calleeName = (call: ts.CallExpression) => calleeNameOf(call.expression);

/** Why `call` starts git past the door, or null. */
function callBreach(
  call: ts.CallExpression,
  starters: ReadonlyMap<string, string>,
  consts: ReadonlyMap<string, string>,
): string | null {
  const [first, second] = call.arguments;
  if (!first) return null;
  const program = literalText(first, consts);
  const starter = starters.get(calleeName(call) ?? "");
  const list = second && ts.isArrayLiteralExpression(second) ? second : null;
  if (program !== null && isGitProgram(program) && (starter || list)) return "starts git";
  if (!starter) return null;
  if (COMMAND_LINES.has(starter) && program !== null && GIT_WORD.test(program))
    return "runs a shell command line that calls git";
  if (program !== null && SHELLS.test(program) && list) {
    const script = list.elements.some((e) => GIT_WORD.test(literalText(e, consts) ?? ""));
    if (script) return "runs a shell script that calls git";
  }
  return null;
}

/** The places in `text` (a module's source) that start git past the door. */
export function gitDoorBreachesIn(file: string, text: string): GitDoorBreach[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const starters = starterNames(source);
  const consts = constTexts(source);
  const found: GitDoorBreach[] = [];
  const add = (node: ts.Node, why: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    const shown = node.getText(source).split("\n")[0] ?? "";
    found.push({ file, line: line + 1, text: `${why}: ${shown}` });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === "simple-git"
    )
      add(node, "imports simple-git");
    if (ts.isCallExpression(node)) {
      const importOf = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const requireOf = ts.isIdentifier(node.expression) && node.expression.text === "require";
      const spec = node.arguments[0];
      if ((importOf || requireOf) && spec && literalText(spec, consts) === "simple-git")
        add(node, "imports simple-git");
      const why = callBreach(node, starters, consts);
      if (why) add(node, why);
      if (calleeName(node) === "safeGitCommand")
        add(node, "builds a git command line to start outside the door");
    }
    if (
      ts.isPropertyAssignment(node) &&
      (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
      node.name.text === "command" &&
      GIT_WORD.test(literalText(node.initializer, consts) ?? "")
    )
      add(node, "hands a shell command that calls git to a runner");
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const SKIP = new Set(["node_modules", "dist", ".turbo", "coverage"]);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/** The breaches in every file under `root`'s `packages/` and `apps/` not on {@link ALLOWED}. */
export function gitDoorBreaches(root: string): GitDoorBreach[] {
  return ["packages", "apps"]
    .flatMap((group) => sourceFiles(join(root, group)))
    .map((file) => relative(root, file).split("\\").join("/"))
    .filter((file) => !allowed(file))
    .flatMap((file) => gitDoorBreachesIn(file, readFileSync(join(root, file), "utf8")));
}
