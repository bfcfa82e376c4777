// `zeng mcp add|remove` arguments, with Claude Code's flags (`-s/--scope`, `-t/--transport`,
// `-e/--env KEY=VALUE`, `-H/--header "Name: value"`). Imports nothing.

/** Where a server is written. */
export type McpScope = "local" | "project" | "user";

export interface McpAddArgs {
  readonly kind: "add";
  readonly name: string;
  readonly scope: McpScope;
  readonly transport: "stdio" | "http" | "sse";
  /** The command (stdio) or URL. */
  readonly target: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface McpRemoveArgs {
  readonly kind: "remove";
  readonly name: string;
  readonly scope: McpScope;
  readonly cwd?: string;
}

type Parsed = { ok: true; value: McpAddArgs | McpRemoveArgs } | { ok: false; error: string };

const SCOPES = ["local", "project", "user"];
const TRANSPORTS = ["stdio", "http", "sse"];
const FLAG = /^(-s|--scope|-t|--transport|-e|--env|-H|--header|--cwd)(=.*)?$/;

interface Raw {
  flags: Map<string, string[]>;
  words: string[];
}

function scan(argv: readonly string[]): Raw {
  const flags = new Map<string, string[]>();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    const m = words.length < 2 ? FLAG.exec(token) : null;
    if (!m) {
      if (token.startsWith("-") && words.length < 2)
        throw new Error(`unknown option ${JSON.stringify(token)}`);
      words.push(token);
      continue;
    }
    const name =
      ({ "-s": "scope", "-t": "transport", "-e": "env", "-H": "header" } as Record<string, string>)[
        m[1] as string
      ] ?? (m[1] as string).slice(2);
    const value = m[2] !== undefined ? m[2].slice(1) : argv[++i];
    if (value === undefined) throw new Error(`${m[1]} needs a value`);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { flags, words };
}

function one(raw: Raw, name: string, allowed: string[], fallback: string): string {
  const values = raw.flags.get(name) ?? [];
  if (values.length > 1) throw new Error(`--${name} is given twice`);
  const value = values[0] ?? fallback;
  if (!allowed.includes(value)) throw new Error(`--${name} must be one of ${allowed.join(", ")}`);
  return value;
}

function pairs(values: readonly string[], sep: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const at = v.indexOf(sep);
    if (at <= 0) throw new Error(`${flag} needs NAME${sep}VALUE (got ${JSON.stringify(v)})`);
    out[v.slice(0, at).trim()] = v.slice(at + sep.length).trim();
  }
  return out;
}

function build(kind: string, raw: Raw): McpAddArgs | McpRemoveArgs {
  const scope = one(raw, "scope", SCOPES, "local") as McpScope;
  const cwd = raw.flags.get("cwd")?.[0];
  const [name, target, ...rest] = raw.words;
  if (!name || !/^[A-Za-z0-9_-]{1,64}$/.test(name))
    throw new Error("needs a server name (letters, digits, _ and -)");
  if (kind === "remove") {
    if (target !== undefined) throw new Error(`unexpected argument ${JSON.stringify(target)}`);
    return { kind, name, scope, ...(cwd ? { cwd } : {}) };
  }
  const transport = one(raw, "transport", TRANSPORTS, "stdio") as McpAddArgs["transport"];
  if (!target)
    throw new Error(
      transport === "stdio" ? "needs a command after the name" : "needs a URL after the name",
    );
  if (transport !== "stdio" && rest.length > 0)
    throw new Error(`unexpected argument ${JSON.stringify(rest[0])}`);
  return {
    kind: "add",
    name,
    scope,
    transport,
    target,
    args: rest,
    env: pairs(raw.flags.get("env") ?? [], "=", "--env"),
    headers: pairs(raw.flags.get("header") ?? [], ":", "--header"),
    ...(cwd ? { cwd } : {}),
  };
}

/** Parses `add ...` or `remove ...` (argv starts with the verb). Never throws. */
export function parseMcpEdit(argv: readonly string[]): Parsed {
  const [kind, ...rest] = argv;
  try {
    if (kind !== "add" && kind !== "remove")
      throw new Error(`unknown mcp command ${JSON.stringify(kind)}`);
    return { ok: true, value: build(kind, scan(rest)) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
