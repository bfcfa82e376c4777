import { resolve } from "node:path";
import type { ParsedCommand, SimpleCommand } from "./action.js";
import { expandBraces } from "./brace.js";
import type { MaybePath } from "./decide-paths.js";
import { resolveWord } from "./paths.js";
import { readPathWords, writePathWords, writesFile } from "./read-only.js";

/**
 * Real paths of files a command line names, found by the tool on the file system: each key is
 * a path as {@link commandPaths} lists it (resolved lexically), each value where it really
 * leads (symlinks followed, dangling ones too).
 */
export type RealPaths = ReadonlyMap<string, string>;

/** A command line with its working folders and the files it names, resolved. */
export interface Line {
  readonly parsed: ParsedCommand;
  readonly commands: readonly SimpleCommand[];
  /** The cwd, plus every folder a `cd` in the line may move to (undefined: unknown). */
  readonly bases: readonly MaybePath[];
  /** Files written by redirections. */
  readonly redirectWrites: readonly MaybePath[];
  /** Files named by known writers (`rm`, `cp`, `tee`, ...) plus redirections. */
  readonly namedWrites: readonly MaybePath[];
  /** Files and folders named by the line's read-only commands (computed on first call). */
  readonly reads: () => readonly MaybePath[];
  /** The paths one word of a command stands for (see {@link wordPaths}). */
  readonly pathsOf: (word: string) => MaybePath[];
}

/**
 * Resolves what a command line names. Every path appears as written (resolved lexically
 * against each working folder, after brace and tilde expansion) and, when `realPaths` knows
 * it, also as where it really leads: both must pass every check. A written path in
 * `hardLinked` (a file with other hard links) also stands for a place known only at run time.
 */
export function analyseLine(
  homeDir: string,
  parsed: ParsedCommand,
  cwd: string,
  realPaths?: RealPaths,
  hardLinked?: ReadonlySet<string>,
): Line {
  const commands = parsed.commands;
  const real = realPaths && realPaths.size > 0 ? realPaths : undefined;
  const lexicalBases = workingFolders(homeDir, commands, resolve(cwd));
  const pathsOf = (word: string) => withReal(wordPaths(word, lexicalBases, homeDir), real);
  const writesOf = (word: string) => withOtherLinks(pathsOf(word), hardLinked);
  const redirectWrites = parsed.redirections.filter(writesFile).flatMap((r) => writesOf(r.target));
  const writerWords = commands.flatMap((c) => writePathWords(c.argv));
  const namedWrites = [...redirectWrites, ...writerWords.flatMap(writesOf)];
  let readList: MaybePath[] | undefined;
  const reads = () => {
    readList ??= commands.flatMap((c) => readPathWords(c.argv)).flatMap(pathsOf);
    return readList;
  };
  const bases = withReal(lexicalBases, real);
  return { parsed, commands, bases, redirectWrites, namedWrites, reads, pathsOf };
}

/**
 * Every absolute path the gate will check for a command line run in `cwd`, resolved lexically
 * (`~` is `homeDir`, braces expanded, `..` folded; run-time words left out): the working
 * folders, redirection targets, files known writers name and paths read-only commands read.
 * A tool resolves each on the file system and passes the answers as {@link RealPaths}.
 */
export function commandPaths(parsed: ParsedCommand, cwd: string, homeDir: string): string[] {
  const line = analyseLine(resolve(homeDir), parsed, cwd);
  const all = [...line.bases, ...line.namedWrites, ...line.reads()];
  return [...new Set(all.filter((p): p is string => p !== undefined))];
}

/** Written paths, plus one place known only at run time when any of them has other hard links. */
function withOtherLinks(
  paths: MaybePath[],
  hardLinked: ReadonlySet<string> | undefined,
): MaybePath[] {
  if (!hardLinked || hardLinked.size === 0) return paths;
  return paths.some((p) => p !== undefined && hardLinked.has(p)) ? [...paths, undefined] : paths;
}

function withReal(paths: MaybePath[], real: RealPaths | undefined): MaybePath[] {
  if (!real) return paths;
  const out: MaybePath[] = [];
  for (const p of paths) {
    out.push(p);
    const r = p === undefined ? undefined : real.get(p);
    if (r !== undefined && r !== p) out.push(r);
  }
  return out;
}

/** The cwd and every folder a `cd`/`pushd` may move later commands to (conservatively all). */
function workingFolders(
  home: string,
  commands: readonly SimpleCommand[],
  cwd: string,
): MaybePath[] {
  const bases: MaybePath[] = [cwd];
  for (const c of commands) {
    const [name, ...args] = c.argv;
    if (name !== "cd" && name !== "pushd" && name !== "popd") continue;
    const target = args.find((a) => !a.startsWith("-") || a === "-");
    if (name === "popd" || target === "-") bases.push(undefined);
    else if (target === undefined) bases.push(home);
    else bases.push(...wordPaths(target, [...bases], home));
  }
  return [...new Set(bases)];
}

/**
 * The paths a word stands for: brace-expanded (`{~/.ssh/id_rsa,x}` is both), each resolved
 * against every possible working folder. Undefined entries are places known only at run time.
 */
function wordPaths(word: string, bases: readonly MaybePath[], home: string): MaybePath[] {
  if (!word.includes("{")) return resolveAll(word, bases, home);
  const words = expandBraces(word);
  if (words === undefined) return [undefined];
  if (words.length === 1) return resolveAll(word, bases, home);
  return words.flatMap((w) => resolveAll(w, bases, home));
}

/** A word resolved against every possible working folder. */
function resolveAll(word: string, bases: readonly MaybePath[], home: string): MaybePath[] {
  if (word.startsWith("/") || word.startsWith("~")) return [resolveWord(word, "/", home)];
  return bases.map((b) => (b === undefined ? undefined : resolveWord(word, b, home)));
}
