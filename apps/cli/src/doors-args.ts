/**
 * The command lines of the two doors: `zeng acp [login]` and `zeng mcp serve`. Strict like the
 * main parser (an unknown flag, a bad or missing value, a flag given twice is one line of
 * error, exit 2). Imports nothing.
 */
import { PERMISSION_MODES, type Mode } from "./args.js";

/** What `zeng acp` and `zeng mcp serve` share. */
export interface DoorArgs {
  readonly cwd?: string;
  readonly mode?: Mode;
  readonly model?: string;
}

/** A parsed door command line. */
export type DoorCommand =
  | { readonly kind: "help" }
  | { readonly kind: "acp"; readonly args: DoorArgs }
  | { readonly kind: "acpLogin"; readonly cwd?: string }
  | {
      readonly kind: "mcpServe";
      readonly args: DoorArgs & { readonly port?: number; readonly tokenFile?: string };
    };

/** The parser's answer: a command, or the reason the usage is bad. */
export type ParsedDoor = { ok: true; command: DoorCommand } | { ok: false; error: string };

const FLAGS: Record<string, readonly string[]> = {
  acp: ["--cwd", "--permission-mode", "--model"],
  acpLogin: ["--cwd"],
  mcpServe: ["--cwd", "--permission-mode", "--model", "--port", "--token-file"],
};

/** True for the command lines this parser owns (the CLI's dispatch asks before its own parser). */
export function isDoor(argv: readonly string[]): boolean {
  return argv[0] === "acp" || (argv[0] === "mcp" && argv[1] === "serve");
}

function flagsOf(kind: keyof typeof FLAGS, tokens: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    const eq = token.indexOf("=");
    const name = eq > 0 ? token.slice(0, eq) : token;
    if (!name.startsWith("--")) throw new Error(`unexpected argument ${JSON.stringify(token)}`);
    if (!(FLAGS[kind] ?? []).includes(name))
      throw new Error(
        `${name} does not apply to \`zeng ${kind === "mcpServe" ? "mcp serve" : "acp"}\``,
      );
    if (flags.has(name)) throw new Error(`${name} is given twice`);
    const value = eq > 0 ? token.slice(eq + 1) : tokens[++i];
    if (value === undefined || value.trim() === "" || (eq < 0 && value.startsWith("--")))
      throw new Error(`${name} needs a value`);
    flags.set(name, value);
  }
  return flags;
}

function common(flags: Map<string, string>): DoorArgs {
  const mode = flags.get("--permission-mode");
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode))
    throw new Error(
      `--permission-mode must be one of ${PERMISSION_MODES.join(", ")} (got "${mode}")`,
    );
  const cwd = flags.get("--cwd");
  const model = flags.get("--model");
  return {
    ...(cwd === undefined ? {} : { cwd }),
    ...(mode === undefined ? {} : { mode: mode as Mode }),
    ...(model === undefined ? {} : { model }),
  };
}

function port(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 0 || n > 65535)
    throw new Error(`--port must be a port number, 0 to 65535 (got "${value}")`);
  return n;
}

function door(argv: readonly string[]): DoorCommand {
  if (argv.includes("--help") || argv.includes("-h")) return { kind: "help" };
  if (argv[0] === "acp" && argv[1] === "login") {
    const cwd = flagsOf("acpLogin", argv.slice(2)).get("--cwd");
    return cwd === undefined ? { kind: "acpLogin" } : { kind: "acpLogin", cwd };
  }
  if (argv[0] === "acp") return { kind: "acp", args: common(flagsOf("acp", argv.slice(1))) };
  const flags = flagsOf("mcpServe", argv.slice(2));
  const p = port(flags.get("--port"));
  const tokenFile = flags.get("--token-file");
  if (tokenFile !== undefined && p === undefined) throw new Error("--token-file needs --port");
  return {
    kind: "mcpServe",
    args: {
      ...common(flags),
      ...(p === undefined ? {} : { port: p }),
      ...(tokenFile === undefined ? {} : { tokenFile }),
    },
  };
}

/** Parses a door's argv (`process.argv.slice(2)`). Never throws. */
export function parseDoor(argv: readonly string[]): ParsedDoor {
  try {
    return { ok: true, command: door(argv) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** The doors' part of the usage text. */
export const DOOR_USAGE = `Doors for editors and other agents:
  zeng acp [--cwd DIR] [--permission-mode M] [--model M]
                               speak the Agent Client Protocol on stdio (Zed, JetBrains, Neovim, Emacs)
  zeng acp login [--cwd DIR]   ask for an API key and store it in auth.json (ACP's terminal login)
  zeng mcp serve [--port N [--token-file F]] [--cwd DIR] [--permission-mode M] [--model M]
                               an MCP server with task and reply tools (stdio; streamable HTTP on
                               127.0.0.1:N with a bearer token, written to F or printed on stderr)
`;
