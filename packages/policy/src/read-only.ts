import type { ParsedCommand, Redirection } from "./action.js";
import { mayEvaluate } from "./read-only-eval.js";

/**
 * Which simple commands only read. Each entry says whether the command's arguments name
 * files it reads (`paths`) and which arguments make it write or run something (`unsafe`).
 */
interface ReadOnlySpec {
  /** True when non-option arguments may be paths it reads. */
  readonly paths: boolean;
  /** Returns true when these arguments make the command write or run another program. */
  readonly unsafe?: (args: readonly string[]) => boolean;
}

const hasAny =
  (...flags: string[]) =>
  (args: readonly string[]) =>
    args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)));
const hasShortFlag = (flag: string) => (args: readonly string[]) =>
  args.some((a) => /^-[A-Za-z]+$/.test(a) && a.includes(flag));

const PATHS: ReadOnlySpec = { paths: true };
const NO_PATHS: ReadOnlySpec = { paths: false };

const COMMANDS: Record<string, ReadOnlySpec> = {
  ls: PATHS,
  cat: PATHS,
  head: PATHS,
  tail: PATHS,
  wc: PATHS,
  nl: PATHS,
  od: PATHS,
  hexdump: PATHS,
  strings: PATHS,
  stat: PATHS,
  du: PATHS,
  df: PATHS,
  cut: PATHS,
  paste: PATHS,
  fold: PATHS,
  rev: PATHS,
  column: PATHS,
  comm: PATHS,
  cmp: PATHS,
  diff: PATHS,
  grep: PATHS,
  egrep: PATHS,
  fgrep: PATHS,
  jq: PATHS,
  basename: NO_PATHS,
  dirname: NO_PATHS,
  realpath: PATHS,
  readlink: PATHS,
  sha1sum: PATHS,
  sha256sum: PATHS,
  sha512sum: PATHS,
  md5sum: PATHS,
  cksum: PATHS,
  cd: PATHS,
  pushd: PATHS,
  popd: NO_PATHS,
  tr: NO_PATHS,
  pwd: NO_PATHS,
  echo: NO_PATHS,
  printf: NO_PATHS,
  true: NO_PATHS,
  false: NO_PATHS,
  test: NO_PATHS,
  "[": NO_PATHS,
  "[[": NO_PATHS,
  which: NO_PATHS,
  type: NO_PATHS,
  whoami: NO_PATHS,
  id: NO_PATHS,
  uname: NO_PATHS,
  printenv: NO_PATHS,
  ps: NO_PATHS,
  file: { paths: true, unsafe: hasAny("-C", "--compile") },
  tree: { paths: true, unsafe: hasAny("-o") },
  sort: {
    paths: true,
    unsafe: (a) => hasAny("-o", "--output", "--compress-program")(a) || hasShortFlag("o")(a),
  },
  uniq: { paths: true, unsafe: (a) => a.filter((x) => !x.startsWith("-")).length > 1 },
  rg: { paths: true, unsafe: hasAny("--pre", "--pre-glob") },
  fd: { paths: true, unsafe: hasAny("-x", "--exec", "-X", "--exec-batch") },
  find: {
    paths: true,
    unsafe: hasAny(
      "-exec",
      "-execdir",
      "-ok",
      "-okdir",
      "-delete",
      "-fprint",
      "-fprint0",
      "-fprintf",
      "-fls",
    ),
  },
  date: { paths: false, unsafe: (a) => hasAny("-s", "--set")(a) || hasShortFlag("s")(a) },
  hostname: { paths: false, unsafe: (a) => a.some((x) => !x.startsWith("-")) },
  env: { paths: false, unsafe: (a) => a.length > 0 },
  git: { paths: true, unsafe: (a) => !isReadOnlyGit(a) },
};

const GIT_ALWAYS = new Set([
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "rev-parse",
  "ls-files",
  "ls-tree",
  "cat-file",
  "shortlog",
  "describe",
  "grep",
  "whatchanged",
  "merge-base",
  "rev-list",
]);
const GIT_BRANCH_LISTING = new Set([
  "-a",
  "-r",
  "-v",
  "-vv",
  "-l",
  "--list",
  "--all",
  "--remotes",
  "--show-current",
  "--merged",
  "--no-merged",
  "--contains",
]);

function isReadOnlyGit(args: readonly string[]): boolean {
  const [sub, ...rest] = args;
  if (sub === undefined) return false;
  if (rest.some((a) => /^(--output|--ext-diff|--exec|--open-files-in-pager|-O)/.test(a)))
    return false;
  if (GIT_ALWAYS.has(sub)) return true;
  const positional = rest.filter((a) => !a.startsWith("-"));
  switch (sub) {
    case "branch":
      return positional.length === 0 && rest.every((a) => GIT_BRANCH_LISTING.has(a));
    case "remote":
      return (
        rest.every((a) => a === "-v" || a === "--verbose") ||
        (rest[0] === "get-url" && rest.length <= 3)
      );
    case "tag":
      return rest.length === 0 || rest[0] === "-l" || rest[0] === "--list";
    case "stash":
    case "worktree":
      return rest[0] === "list";
    case "config":
      return rest.some((a) => ["--get", "--get-all", "--list", "-l", "--get-regexp"].includes(a));
    case "reflog":
      return rest.length === 0 || rest[0] === "show";
    default:
      return false;
  }
}

/** The spec of a read-only simple command, or undefined when it may write or run things. */
function readOnlySpec(argv: readonly string[]): ReadOnlySpec | undefined {
  const name = argv[0];
  if (name === undefined || !Object.hasOwn(COMMANDS, name)) return undefined;
  const spec = COMMANDS[name];
  if (!spec || mayEvaluate(argv)) return undefined;
  return spec.unsafe?.(argv.slice(1)) ? undefined : spec;
}

/** True when one simple command (its words) only reads: `ls -la`, `git log`, `find . -name x`. */
export function isReadOnlySimpleCommand(argv: readonly string[]): boolean {
  return readOnlySpec(argv) !== undefined;
}

/** Redirection targets that are not files anyone keeps. */
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);

/** True when a redirection writes to a real file (`> out`, not `2>&1` or `2>/dev/null`). */
export function writesFile(r: Redirection): boolean {
  return r.writes && !HARMLESS_TARGETS.has(r.target) && !/^\/dev\/fd\/\d+$/.test(r.target);
}

/**
 * True when a parsed command line only reads: it parsed without error, has at least one
 * simple command, every simple command is read-only and no redirection writes a file.
 * Paths are not looked at: a read-only command may still read outside the project.
 */
export function isReadOnlyCommand(parsed: ParsedCommand): boolean {
  if (parsed.error !== undefined || parsed.commands.length === 0) return false;
  if (parsed.redirections.some(writesFile)) return false;
  return parsed.commands.every((c) => isReadOnlySimpleCommand(c.argv));
}

/**
 * The words of a read-only command that may name files it reads (non-option arguments, and the
 * values of `--opt=value` or `-I/path` options). Empty for commands that take no paths.
 */
export function readPathWords(argv: readonly string[]): string[] {
  const spec = readOnlySpec(argv);
  if (!spec?.paths) return [];
  const words: string[] = [];
  const start = argv[0] === "git" ? 2 : 1;
  for (const arg of argv.slice(start)) {
    if (!arg.startsWith("-")) words.push(arg);
    else if (arg.includes("=")) words.push(arg.slice(arg.indexOf("=") + 1));
    else if (/[/~$`]/.test(arg)) words.push(arg.slice(arg.search(/[/~$`]/)));
  }
  if (argv[0] === "cd" && words.length === 0) words.push("~");
  return words;
}

/** Commands whose non-option arguments are files they write (for sandbox auto-allow). */
const WRITERS = new Set([
  "rm",
  "rmdir",
  "mkdir",
  "touch",
  "cp",
  "mv",
  "ln",
  "tee",
  "truncate",
  "install",
  "chmod",
  "chown",
  "chgrp",
  "shred",
  "unlink",
]);

/**
 * The words a simple command names as files it writes: the non-option arguments of known
 * writers (`rm`, `cp`, `tee`, ...), `dd`'s `of=`, and `sed -i`'s files. Other programs'
 * writes are not visible here (the sandbox confines them).
 */
export function writePathWords(argv: readonly string[]): string[] {
  const [name, ...args] = argv;
  if (name === undefined) return [];
  if (name === "dd") return args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3));
  const writer =
    WRITERS.has(name) || (name === "sed" && args.some((a) => /^(-i|--in-place)/.test(a)));
  if (!writer) return [];
  return args.filter((a) => !a.startsWith("-"));
}

/**
 * True when a read-only command reads whole folders' contents (`rg`, `grep -r`, `git grep`),
 * searching the cwd when it names no path.
 */
export function readsRecursively(argv: readonly string[]): boolean {
  const [name, ...args] = argv;
  if (name === "rg" || (name === "git" && args[0] === "grep")) return true;
  if (name !== "grep" && name !== "egrep" && name !== "fgrep") return false;
  return args.some(
    (a) =>
      /^-[A-Za-z]*[rR]/.test(a) ||
      a === "--recursive" ||
      a === "--dereference-recursive" ||
      a === "--directories=recurse",
  );
}
