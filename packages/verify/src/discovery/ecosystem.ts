import type { CheckKind } from "@z-engine/protocol";
import type { Folder } from "./walk.js";

/** A check an ecosystem module found in one folder, before it gets its id and folder. */
export interface FoundCheck {
  /** The id's first part: `npm`, `pnpm`, `cargo`, `python`, ... */
  readonly ecosystem: string;
  /** The id's second part: a script, target or tool name. */
  readonly name: string;
  readonly kind: CheckKind;
  readonly command: string;
}

/** What an ecosystem module may look at: the folder, other folders, and file contents. */
export interface DiscoveryContext {
  readonly folder: Folder;
  /** Every walked folder by relative path. */
  readonly folders: ReadonlyMap<string, Folder>;
  /**
   * A file's text (`name` relative to `folder`, or `inFolder`), cached; undefined when it
   * is missing, unreadable or over the size limit (the last two are reported as problems).
   */
  read(name: string, inFolder?: Folder): Promise<string | undefined>;
  /** Reports a problem with a file of this folder (a build file that does not parse). */
  problem(name: string, message: string): void;
}

/**
 * One ecosystem's discovery. `applies` is a cheap look at the folder's file names;
 * `discover` reads build files and returns the folder's checks, the primary test check
 * first. It never runs anything and reports bad files through `ctx.problem` instead of
 * throwing.
 */
export interface Ecosystem {
  readonly name: string;
  applies(folder: Folder): boolean;
  discover(ctx: DiscoveryContext): Promise<FoundCheck[]>;
}

/** The folders above `rel`, nearest first, ending with the root `.`. */
export function ancestorsOf(rel: string): string[] {
  if (rel === ".") return [];
  const parts = rel.split("/");
  const out: string[] = [];
  for (let i = parts.length - 1; i > 0; i--) out.push(parts.slice(0, i).join("/"));
  out.push(".");
  return out;
}

/** The nearest folder above `folder` (not itself) for which `test` holds. */
export function nearestAncestor(
  ctx: DiscoveryContext,
  test: (folder: Folder) => boolean,
): Folder | undefined {
  for (const rel of ancestorsOf(ctx.folder.rel)) {
    const folder = ctx.folders.get(rel);
    if (folder !== undefined && test(folder)) return folder;
  }
  return undefined;
}

/** Names that are safe to put on a command line unquoted (scripts, targets, recipes). */
export const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_:.@/+-]*$/;

const KIND_BY_NAME: ReadonlyArray<readonly [RegExp, CheckKind]> = [
  [/^(?:test|tests|unit|test[:-].+|tests[:-].+)$/, "test"],
  [/^(?:build|compile|all)$/, "build"],
  [/^(?:typecheck|type-check|typecheck[:-].+|check[:-]types|types|tsc)$/, "typecheck"],
  [/^(?:lint|eslint|lint[:-].+)$/, "lint"],
  [/^(?:format|fmt|prettier|(?:format|fmt|prettier)[:-]check|check[:-](?:format|fmt))$/, "format"],
];

/**
 * The kind of a script, target or recipe by its name, or undefined when it is not a check:
 * `test`, `test:*` (test); `build`, `compile`, `all` (build); `typecheck`, `tsc`,
 * `check-types` (typecheck); `lint`, `lint:*` (lint); `format`, `fmt`, `prettier` and
 * their `:check` forms (format). Names that watch, serve or fix are never checks.
 */
export function kindOfName(name: string): CheckKind | undefined {
  if (/(?:^|[:_-])(?:watch|dev|serve|start|fix|debug|update)(?:$|[:_-])/.test(name))
    return undefined;
  for (const [pattern, kind] of KIND_BY_NAME) if (pattern.test(name)) return kind;
  return undefined;
}

/**
 * Keeps, among format checks, only the ones that check rather than rewrite (`format:check`
 * over `format`) when both exist.
 */
export function preferCheckingFormatters(checks: FoundCheck[]): FoundCheck[] {
  const formatters = checks.filter((c) => c.kind === "format");
  if (!formatters.some((c) => /check/.test(c.name))) return checks;
  return checks.filter((c) => c.kind !== "format" || /check/.test(c.name));
}

/**
 * Orders checks test, build, typecheck, lint, format (a check named `test` first among the
 * tests), keeping the given order otherwise.
 */
export function byKind(checks: FoundCheck[]): FoundCheck[] {
  const order: CheckKind[] = ["test", "build", "typecheck", "lint", "format"];
  const rank = (c: FoundCheck) => order.indexOf(c.kind) * 2 + (c.name === "test" ? 0 : 1);
  return [...checks].sort((a, b) => rank(a) - rank(b));
}

/** The walked folders above this context's folder, nearest first. */
export function ancestorFolders(ctx: DiscoveryContext): Folder[] {
  const out: Folder[] = [];
  for (const rel of ancestorsOf(ctx.folder.rel)) {
    const folder = ctx.folders.get(rel);
    if (folder !== undefined) out.push(folder);
  }
  return out;
}
