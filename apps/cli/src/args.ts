/**
 * The command line parser. Strict: an unknown flag, a missing or bad value, a flag given
 * twice or a flag that does not fit the command is an error of one line (exit 2). Imports
 * nothing, so that parsing costs nothing at start-up.
 */

/** The `--output-format` values. */
export const OUTPUT_FORMATS = ["text", "json", "stream-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The `--permission-mode` values (protocol's PermissionMode). */
export const PERMISSION_MODES = ["ask", "acceptEdits", "plan", "bypass"] as const;
export type Mode = (typeof PERMISSION_MODES)[number];

/** What `zeng -p` was asked to do. */
export interface HeadlessArgs {
  readonly prompt: string;
  readonly outputFormat: OutputFormat;
  readonly mode?: Mode;
  readonly model?: string;
  readonly resume?: string;
  readonly continue: boolean;
  readonly cwd?: string;
  readonly maxTurns?: number;
}

/** What interactive `zeng` was asked to do; `resume: true` is `--resume` without an id (pick one). */
export interface InteractiveArgs extends Omit<HeadlessArgs, "prompt" | "outputFormat" | "resume"> {
  readonly prompt?: string;
  readonly resume?: string | true;
}

/** A parsed command line. */
export type Command =
  | { readonly kind: "usage" }
  | { readonly kind: "interactive"; readonly args: InteractiveArgs }
  | { readonly kind: "version" }
  | { readonly kind: "headless"; readonly args: HeadlessArgs }
  | { readonly kind: "trust"; readonly dir?: string }
  | { readonly kind: "mcpList"; readonly cwd?: string }
  | {
      readonly kind: "mcpLogin" | "mcpLogout";
      readonly server: string;
      readonly cwd?: string;
    }
  | { readonly kind: "demo" };

/** The parser's answer: a command, or the one-line reason the usage is bad. */
export type ParsedArgs = { ok: true; command: Command } | { ok: false; error: string };

type FlagName =
  | "print"
  | "output-format"
  | "permission-mode"
  | "model"
  | "resume"
  | "cwd"
  | "max-turns"
  | "continue"
  | "help"
  | "version";

const VALUE_FLAGS = new Set<FlagName>([
  "print",
  "output-format",
  "permission-mode",
  "model",
  "resume",
  "cwd",
  "max-turns",
]);
const BOOLEAN_FLAGS = new Set<FlagName>(["continue", "help", "version"]);
const SHORT: Record<string, FlagName> = { "-p": "print", "-h": "help", "-V": "version" };
const SUBCOMMANDS = new Set(["trust", "demo", "mcp"]);

class UsageError extends Error {}

/** A value as an error shows it: quoted, control characters escaped, at most 60 characters. */
function quote(value: string): string {
  const short = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  return JSON.stringify(short);
}

interface Scanned {
  flags: Map<FlagName, string>;
  positionals: string[];
}

function flagName(token: string): FlagName {
  const short = SHORT[token];
  if (short) return short;
  const name = token.slice(2) as FlagName;
  if (token.startsWith("--") && (VALUE_FLAGS.has(name) || BOOLEAN_FLAGS.has(name))) return name;
  throw new UsageError(`unknown option ${/^[\w-]+$/.test(token) ? token : quote(token)}`);
}

function shown(name: FlagName): string {
  return name === "print" ? "-p" : `--${name}`;
}

/** Splits argv into flags (by name) and positionals; `--` ends the flags. */
function scan(argv: readonly string[]): Scanned {
  const flags = new Map<FlagName, string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith("-") || token === "-") {
      positionals.push(token);
      continue;
    }
    const eq = token.indexOf("=");
    const name = flagName(eq > 0 ? token.slice(0, eq) : token);
    if (flags.has(name)) throw new UsageError(`${shown(name)} is given twice`);
    if (BOOLEAN_FLAGS.has(name)) {
      if (eq > 0) throw new UsageError(`${shown(name)} takes no value`);
      flags.set(name, "true");
      continue;
    }
    let value = eq > 0 ? token.slice(eq + 1) : argv[i + 1];
    if (eq < 0) {
      if (value === undefined || (value.startsWith("-") && value !== "-"))
        throw new UsageError(`${shown(name)} needs a value`);
      i++;
    }
    value = value ?? "";
    if (value.trim() === "") throw new UsageError(`${shown(name)} needs a non-empty value`);
    flags.set(name, value);
  }
  return { flags, positionals };
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${name} must be one of ${allowed.join(", ")} (got ${quote(value)})`);
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${name} must be a whole number of at least 1 (got ${quote(value)})`);
  return n;
}

function headless(flags: Map<FlagName, string>): HeadlessArgs {
  const resume = flags.get("resume");
  if (resume !== undefined && !/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/.test(resume))
    throw new UsageError(`--resume needs a session id (got ${quote(resume)})`);
  if (resume !== undefined && flags.has("continue"))
    throw new UsageError("--resume and --continue cannot be used together");
  const format = flags.get("output-format");
  const mode = flags.get("permission-mode");
  const model = flags.get("model");
  const cwd = flags.get("cwd");
  const maxTurns = flags.get("max-turns");
  return {
    prompt: flags.get("print") as string,
    outputFormat: format === undefined ? "text" : oneOf("--output-format", format, OUTPUT_FORMATS),
    ...(mode === undefined ? {} : { mode: oneOf("--permission-mode", mode, PERMISSION_MODES) }),
    ...(model === undefined ? {} : { model }),
    ...(resume === undefined ? {} : { resume }),
    continue: flags.has("continue"),
    ...(cwd === undefined ? {} : { cwd }),
    ...(maxTurns === undefined ? {} : { maxTurns: positiveInt("--max-turns", maxTurns) }),
  };
}

/** `zeng mcp list [--cwd DIR]`, `zeng mcp login|logout SERVER [--cwd DIR]`. */
function mcpCommand(rest: string[], flags: Map<FlagName, string>): Command {
  const stray = [...flags.keys()].find((f) => f !== "help" && f !== "cwd");
  if (stray) throw new UsageError(`${shown(stray)} does not apply to \`zeng mcp\``);
  if (flags.has("help")) return { kind: "usage" };
  const [verb, server, extra] = rest;
  const cwd = flags.get("cwd");
  const at = cwd === undefined ? {} : { cwd };
  if (verb === "login" || verb === "logout") {
    if (server === undefined) throw new UsageError(`zeng mcp ${verb} needs a server name`);
    if (extra !== undefined)
      throw new UsageError(`unexpected argument ${quote(extra)} after mcp ${verb} ${server}`);
    return { kind: verb === "login" ? "mcpLogin" : "mcpLogout", server, ...at };
  }
  if (verb !== "list")
    throw new UsageError(
      verb === undefined
        ? "zeng mcp needs a command: list, login or logout"
        : `unknown mcp command ${quote(verb)}`,
    );
  if (server !== undefined)
    throw new UsageError(`unexpected argument ${quote(server)} after mcp list`);
  return { kind: "mcpList", ...at };
}

function subcommand(name: string, rest: string[], flags: Map<FlagName, string>): Command {
  if (name === "mcp") return mcpCommand(rest, flags);
  const stray = [...flags.keys()].find((f) => f !== "help");
  if (stray) throw new UsageError(`${shown(stray)} does not apply to \`zeng ${name}\``);
  if (flags.has("help")) return { kind: "usage" };
  if (name === "demo") {
    if (rest.length > 0)
      throw new UsageError(`unexpected argument ${quote(rest[0] as string)} after demo`);
    return { kind: "demo" };
  }
  if (rest.length > 1)
    throw new UsageError(`unexpected argument ${quote(rest[1] as string)} after trust DIR`);
  return rest[0] === undefined ? { kind: "trust" } : { kind: "trust", dir: rest[0] };
}

/** `zeng ["PROMPT"] [--resume [ID] | --continue] [--permission-mode M] [--model M] [--cwd DIR] [--max-turns N]`. */
function interactive(flags: Map<FlagName, string>, positionals: string[], pick: boolean): Command {
  if (flags.has("output-format")) throw new UsageError('--output-format needs -p "PROMPT"');
  if (positionals.length > 1)
    throw new UsageError(
      `unexpected argument ${quote(positionals[1] as string)} (quote the whole prompt)`,
    );
  if (pick && flags.has("continue"))
    throw new UsageError("--resume and --continue cannot be used together");
  const { prompt: _, outputFormat: __, resume, ...rest } = headless(flags);
  const prompt = positionals[0];
  return {
    kind: "interactive",
    args: {
      ...rest,
      ...(prompt === undefined ? {} : { prompt }),
      ...(pick ? { resume: true as const } : resume === undefined ? {} : { resume }),
    },
  };
}

/** `--resume` with no id after it (at the end, or before another flag) asks for a picker. */
function bareResume(argv: readonly string[]): number {
  if (
    argv.includes("-p") ||
    argv.some((a) => a === "--print" || a.startsWith("-p=") || a.startsWith("--print="))
  )
    return -1;
  const at = argv.indexOf("--resume");
  const next = argv[at + 1];
  return at >= 0 && (next === undefined || next.startsWith("-")) ? at : -1;
}

function command(argv: readonly string[]): Command {
  const bare = bareResume(argv);
  const { flags, positionals } = scan(bare < 0 ? argv : argv.filter((_, i) => i !== bare));
  const [first, ...rest] = positionals;
  if (first !== undefined && !flags.has("print") && SUBCOMMANDS.has(first))
    return subcommand(first, rest, flags);
  if (flags.has("help")) return { kind: "usage" };
  if (flags.has("version")) return { kind: "version" };
  if (flags.has("print")) {
    if (first !== undefined)
      throw new UsageError(`unexpected argument ${quote(first)} (quote the whole prompt after -p)`);
    return { kind: "headless", args: headless(flags) };
  }
  return interactive(flags, positionals, bare >= 0);
}

/** Parses `process.argv.slice(2)`. Never throws: bad usage comes back as `{ ok: false, error }`. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  try {
    return { ok: true, command: command(argv) };
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, error: error.message };
    throw error;
  }
}
