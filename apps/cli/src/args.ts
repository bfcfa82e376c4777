/**
 * The command line parser. Strict: an unknown flag, a missing or bad value, a flag given
 * twice or a flag that does not fit the command is an error of one line (exit 2). Imports
 * nothing heavy, so that parsing costs nothing at start-up.
 */
import { PERMISSION_MODES, type PermissionMode } from "@z-engine/protocol";
import { type DialectArgs, dialectArgs } from "./args-dialect.js";
import {
  ALIASES,
  CLAUDE_ONLY,
  type FlagName,
  flagKind,
  type ListFlag,
  SHORT,
} from "./flag-table.js";
import { type LegacyCommand, legacySubcommand, SUBCOMMANDS } from "./subcommand-args.js";
import { oneOf, quote, shown, UsageError } from "./usage-error.js";

/** The `--output-format` values; the `claude-` ones write Claude Code's message shapes. */
export const OUTPUT_FORMATS = [
  "text",
  "json",
  "stream-json",
  "claude-json",
  "claude-stream-json",
] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The `--permission-mode` values: protocol's permission modes. */
export { PERMISSION_MODES };
export type Mode = PermissionMode;

/** Claude Code's permission mode names, as zeng's (`dontAsk`: asks are denied, which `-p` does). */
export const MODE_ALIASES: Readonly<Record<string, Mode>> = {
  default: "ask",
  bypassPermissions: "bypass",
  dontAsk: "ask",
};

/** What `zeng -p` was asked to do. */
export interface HeadlessArgs extends DialectArgs {
  /** The prompt; undefined: read from stdin (`-p` without a prompt, or `--input-format stream-json`). */
  readonly prompt?: string;
  readonly outputFormat: OutputFormat;
  readonly mode?: Mode;
  readonly model?: string;
  readonly resume?: string;
  readonly continue: boolean;
  readonly cwd?: string;
  readonly maxTurns?: number;
  /** `--debug`: log at debug level to stderr (instead of the log file). */
  readonly debug?: boolean;
}

/** What interactive `zeng` was asked to do; `resume: true` is `--resume` without an id (pick one). */
export interface InteractiveArgs {
  readonly prompt?: string;
  readonly mode?: Mode;
  readonly model?: string;
  readonly resume?: string | true;
  readonly continue: boolean;
  readonly cwd?: string;
  readonly maxTurns?: number;
  /** `--debug`: log at debug level (to the log file still: the screen is the UI's). */
  readonly debug?: boolean;
}

/** A parsed command line. */
export type Command =
  | LegacyCommand
  | { readonly kind: "interactive"; readonly args: InteractiveArgs }
  | { readonly kind: "version" }
  | { readonly kind: "headless"; readonly args: HeadlessArgs }
  /** A subcommand that parses its own flags (`zeng login`, `zeng mcp add|remove`): the words after it. */
  | {
      readonly kind: "login" | "mcpEdit" | "mcpGet" | "config" | "web" | "doctor";
      readonly argv: readonly string[];
    };

/** The parser's answer: a command, or the one-line reason the usage is bad. */
export type ParsedArgs = { ok: true; command: Command } | { ok: false; error: string };

/** What the scan found: single values by flag, list values, positionals. */
export interface Scanned {
  readonly flags: Map<FlagName, string>;
  readonly lists: Map<ListFlag, string[]>;
  readonly positionals: string[];
}

function flagName(token: string): FlagName {
  const short = SHORT[token];
  if (short) return short;
  const alias = ALIASES[token];
  if (alias) return alias;
  const name = token.slice(2);
  if (token.startsWith("--") && flagKind(name) !== undefined) return name as FlagName;
  throw new UsageError(`unknown option ${/^[\w-]+$/.test(token) ? token : quote(token)}`);
}

const isValue = (token: string | undefined): token is string =>
  token !== undefined && (!token.startsWith("-") || token === "-");

function nonEmpty(name: FlagName, value: string): string {
  if (value.trim() === "") throw new UsageError(`${shown(name)} needs a non-empty value`);
  return value;
}

/** Reads one flag at `argv[i]`; returns the index of the last token it took. */
function scanFlag(argv: readonly string[], i: number, out: Scanned): number {
  const token = argv[i] as string;
  const eq = token.startsWith("--") ? token.indexOf("=") : token.startsWith("-p=") ? 2 : -1;
  const name = flagName(eq > 0 ? token.slice(0, eq) : token);
  const inline = eq > 0 ? token.slice(eq + 1) : undefined;
  const kind = flagKind(name);
  if (kind === "list") {
    const list = out.lists.get(name as ListFlag) ?? [];
    out.lists.set(name as ListFlag, list);
    if (inline !== undefined) list.push(nonEmpty(name, inline));
    let j = i;
    while (inline === undefined && isValue(argv[j + 1])) list.push(argv[++j] as string);
    if (list.length === 0) throw new UsageError(`${shown(name)} needs a value`);
    return j;
  }
  if (out.flags.has(name)) throw new UsageError(`${shown(name)} is given twice`);
  if (kind === "boolean") {
    if (inline !== undefined) throw new UsageError(`${shown(name)} takes no value`);
    out.flags.set(name, "");
    return i;
  }
  if (inline !== undefined) {
    out.flags.set(name, nonEmpty(name, inline));
    return i;
  }
  const next = argv[i + 1];
  if (isValue(next)) {
    out.flags.set(name, nonEmpty(name, next));
    return i + 1;
  }
  if (kind === "optional") {
    out.flags.set(name, "");
    return i;
  }
  throw new UsageError(`${shown(name)} needs a value`);
}

/** Splits argv into flags (by name) and positionals; `--` ends the flags. */
function scan(argv: readonly string[]): Scanned {
  const out: Scanned = { flags: new Map(), lists: new Map(), positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "--") {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (isValue(token)) out.positionals.push(token);
    else i = scanFlag(argv, i, out);
  }
  return out;
}

function positiveInt(name: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${name} must be a whole number of at least 1 (got ${quote(value)})`);
  return n;
}

function modeOf(flags: Map<FlagName, string>): Mode | undefined {
  const mode = flags.get("permission-mode");
  const skip = flags.has("dangerously-skip-permissions");
  const named =
    mode === undefined
      ? undefined
      : (MODE_ALIASES[mode] ??
        oneOf("--permission-mode", mode, [...PERMISSION_MODES, ...Object.keys(MODE_ALIASES)]));
  if (skip && named !== undefined && named !== "bypass")
    throw new UsageError(`--dangerously-skip-permissions and --permission-mode ${mode} disagree`);
  return skip ? "bypass" : (named as Mode | undefined);
}

/** The flags every session takes (headless and interactive). */
function sessionFlags(flags: Map<FlagName, string>) {
  const resume = flags.get("resume") || undefined;
  if (resume !== undefined && !/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/.test(resume))
    throw new UsageError(`--resume needs a session id (got ${quote(resume)})`);
  if (flags.has("resume") && flags.has("continue"))
    throw new UsageError("--resume and --continue cannot be used together");
  const mode = modeOf(flags);
  const model = flags.get("model");
  const cwd = flags.get("cwd");
  const maxTurns = flags.get("max-turns");
  return {
    ...(mode === undefined ? {} : { mode }),
    ...(model === undefined ? {} : { model }),
    ...(resume === undefined ? {} : { resume }),
    continue: flags.has("continue"),
    ...(cwd === undefined ? {} : { cwd }),
    ...(maxTurns === undefined ? {} : { maxTurns: positiveInt("--max-turns", maxTurns) }),
    ...(flags.has("debug") ? { debug: true } : {}),
  };
}

function outputFormat(scanned: Scanned): OutputFormat {
  const format = scanned.flags.get("output-format");
  if (format === undefined) return "text";
  const chosen = oneOf("--output-format", format, OUTPUT_FORMATS);
  if (chosen !== "json" && chosen !== "stream-json") return chosen;
  const claude = [...scanned.flags.keys(), ...scanned.lists.keys()].some((f) => CLAUDE_ONLY.has(f));
  return claude ? `claude-${chosen}` : chosen;
}

function headless(scanned: Scanned, prompt: string | undefined): HeadlessArgs {
  const { flags } = scanned;
  if (flags.has("resume") && !flags.get("resume")) throw new UsageError("--resume needs a value");
  const dialect = dialectArgs(flags, scanned.lists);
  const resuming = flags.has("resume") || flags.has("continue");
  if (dialect.forkSession && !resuming)
    throw new UsageError("--fork-session needs --resume ID or --continue");
  if (dialect.sessionId && resuming && !dialect.forkSession)
    throw new UsageError(
      "--session-id names a new session: with --resume or --continue it needs --fork-session",
    );
  if (dialect.inputFormat === "stream-json" && prompt !== undefined)
    throw new UsageError(
      "--input-format stream-json reads the prompt from stdin (drop the prompt)",
    );
  return {
    ...(prompt === undefined ? {} : { prompt }),
    outputFormat: outputFormat(scanned),
    ...sessionFlags(flags),
    ...dialect,
  };
}

/** `zeng ["PROMPT"] [--resume [ID] | --continue] [--permission-mode M] [--model M] [--cwd DIR] [--max-turns N]`. */
function interactive(scanned: Scanned): Command {
  const { flags, lists, positionals } = scanned;
  if (flags.has("output-format")) throw new UsageError('--output-format needs -p "PROMPT"');
  const claudeOnly = [...flags.keys(), ...lists.keys()].find((f) => CLAUDE_ONLY.has(f));
  if (claudeOnly) throw new UsageError(`${shown(claudeOnly)} applies to -p only`);
  if (positionals.length > 1)
    throw new UsageError(
      `unexpected argument ${quote(positionals[1] as string)} (quote the whole prompt)`,
    );
  if (flags.get("permission-mode") === "dontAsk")
    throw new UsageError("--permission-mode dontAsk applies to -p only (interactive zeng asks)");
  const pick = flags.has("resume") && !flags.get("resume");
  const prompt = positionals[0];
  return {
    kind: "interactive",
    args: {
      ...sessionFlags(flags),
      ...(prompt === undefined ? {} : { prompt }),
      ...(pick ? { resume: true as const } : {}),
    },
  };
}

function command(argv: readonly string[]): Command {
  const word = argv[0];
  if (word === "login" || word === "config" || word === "web" || word === "doctor")
    return { kind: word, argv: argv.slice(1) };
  if (argv[0] === "mcp" && argv[1] === "get") return { kind: "mcpGet", argv: argv.slice(2) };
  if (argv[0] === "mcp" && (argv[1] === "add" || argv[1] === "remove"))
    return { kind: "mcpEdit", argv: argv.slice(1) };
  const scanned = scan(argv);
  const { flags, positionals } = scanned;
  const [first, ...rest] = positionals;
  if (first !== undefined && !flags.has("print") && SUBCOMMANDS.has(first))
    return legacySubcommand(first, rest, flags);
  if (flags.has("help")) return { kind: "usage" };
  if (flags.has("version")) return { kind: "version" };
  if (!flags.has("print")) return interactive(scanned);
  const value = flags.get("print") || undefined;
  if (value !== undefined && first !== undefined)
    throw new UsageError(`unexpected argument ${quote(first)} (quote the whole prompt after -p)`);
  if (positionals.length > 1)
    throw new UsageError(
      `unexpected argument ${quote(positionals[1] as string)} (quote the whole prompt)`,
    );
  return { kind: "headless", args: headless(scanned, value ?? first) };
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
