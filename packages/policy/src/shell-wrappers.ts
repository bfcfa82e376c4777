/**
 * Commands that run another command: `nohup npm test`, `timeout 5 rm x`, `xargs rm`,
 * `find . -exec rm {} ;`, `bash -c 'rm x'`, `eval 'rm x'`. Their inner commands are checked
 * as simple commands of their own, so a rule cannot be slipped past by wrapping.
 */

/** What {@link unwrapCommand} found inside a simple command. */
export interface Unwrapped {
  /** False for transparent wrappers (`nohup`, `time`, `timeout`, ...): only the inner command counts. */
  readonly keepOuter: boolean;
  /** Inner commands' words. */
  readonly inner: string[][];
  /** Shell source to parse as well (`bash -c STR`, `eval ...`). */
  readonly scripts: string[];
}

/** Wrappers that only change how their command runs; each maps to its options taking a value. */
const TRANSPARENT: Record<string, readonly string[]> = {
  nohup: [],
  time: ["-f", "-o"],
  builtin: [],
  command: [],
  exec: ["-a"],
  nice: ["-n"],
  stdbuf: ["-i", "-o", "-e"],
  timeout: ["-s", "-k"],
};
/** Wrappers that change the command's environment or input; the outer command is kept too. */
const SEMANTIC: Record<string, readonly string[]> = {
  env: ["-u", "-C", "-S"],
  sudo: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"],
  doas: ["-u", "-C"],
  xargs: ["-I", "-n", "-P", "-d", "-L", "-s", "-E", "-a", "-l", "-i"],
  watch: ["-n", "-d"],
};
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const MAX_UNWRAP = 8;

/** Finds the commands a simple command runs in turn (see {@link Unwrapped}). */
export function unwrapCommand(argv: readonly string[]): Unwrapped {
  const inner: string[][] = [];
  const scripts: string[] = [];
  let keepOuter = true;
  let current: readonly string[] = argv;
  for (let depth = 0; ; depth++) {
    const step = depth < MAX_UNWRAP ? unwrapOnce(current, scripts) : undefined;
    if (!step) {
      if (depth > 0) inner.push([...current]);
      break;
    }
    if (depth === 0) keepOuter = step.keep;
    else if (step.keep) inner.push([...current]);
    inner.push(...step.extra);
    if (!step.next || step.next.length === 0) break;
    current = step.next;
  }
  return { keepOuter: keepOuter || inner.length === 0, inner: dedupe(inner), scripts };
}

interface Step {
  keep: boolean;
  next?: readonly string[];
  extra: string[][];
}

function unwrapOnce(argv: readonly string[], scripts: string[]): Step | undefined {
  const name = argv[0] ?? "";
  const rest = argv.slice(1);
  if (name === "command" && rest.some((a) => a === "-v" || a === "-V")) return undefined;
  const transparent = TRANSPARENT[name];
  if (transparent)
    return {
      keep: false,
      next: afterDuration(name, skipOptions(rest, transparent, false)),
      extra: [],
    };
  const semantic = SEMANTIC[name];
  if (semantic) return { keep: true, next: skipOptions(rest, semantic, name === "env"), extra: [] };
  if (SHELLS.has(name)) return shellScript(rest, scripts);
  if (name === "eval") {
    scripts.push(rest.join(" "));
    return { keep: true, extra: [] };
  }
  if (name === "find") return findExec(rest);
  return undefined;
}

/** Skips options (and the values of `withValue` options), and `VAR=value` words for env. */
function skipOptions(
  args: readonly string[],
  withValue: readonly string[],
  assignments: boolean,
): string[] {
  let i = 0;
  while (i < args.length) {
    const a = args[i] ?? "";
    if (a === "--") return args.slice(i + 1);
    if (a.startsWith("-") && a.length > 1) {
      i += withValue.includes(a) ? 2 : 1;
    } else if (assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      i += 1;
    } else break;
  }
  return args.slice(i);
}

function afterDuration(name: string, args: string[]): string[] {
  return name === "timeout" ? args.slice(1) : args;
}

function shellScript(args: readonly string[], scripts: string[]): Step | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (!a.startsWith("-") || a === "--") return undefined;
    if (!a.startsWith("--") && a.includes("c")) {
      const script = args[i + 1];
      if (script === undefined) return undefined;
      scripts.push(script);
      return { keep: true, extra: [] };
    }
  }
  return undefined;
}

function findExec(args: readonly string[]): Step | undefined {
  const extra: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(args[i] ?? "")) continue;
    const cmd: string[] = [];
    let j = i + 1;
    for (; j < args.length && args[j] !== ";" && args[j] !== "+"; j++) cmd.push(args[j] ?? "");
    if (cmd.length > 0) extra.push(cmd);
    i = j;
  }
  return extra.length > 0 ? { keep: true, extra } : undefined;
}

function dedupe(list: string[][]): string[][] {
  const seen = new Set<string>();
  return list.filter((argv) => {
    const key = argv.join("\0");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
