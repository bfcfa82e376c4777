// `zeng trust [DIR]`, `zeng demo`, `zeng mcp list|login|logout`: their arguments.
import type { FlagName } from "./flag-table.js";
import { quote, shown, UsageError } from "./usage-error.js";

/** What these subcommands parse to (part of args.ts's Command). */
export type LegacyCommand =
  | { readonly kind: "usage" }
  | { readonly kind: "trust"; readonly dir?: string }
  | { readonly kind: "mcpList"; readonly cwd?: string }
  | { readonly kind: "mcpLogin" | "mcpLogout"; readonly server: string; readonly cwd?: string }
  | { readonly kind: "demo" };

/** The words that are subcommands (any other first word is a prompt). */
export const SUBCOMMANDS: ReadonlySet<string> = new Set(["trust", "demo", "mcp"]);

/** `zeng mcp list [--cwd DIR]`, `zeng mcp login|logout SERVER [--cwd DIR]`. */
function mcpCommand(rest: string[], flags: Map<FlagName, string>): LegacyCommand {
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

/** The command of subcommand `name` with the words after it and the flags given. */
export function legacySubcommand(
  name: string,
  rest: string[],
  flags: Map<FlagName, string>,
): LegacyCommand {
  const allowed = name === "mcp" ? ["help", "cwd"] : ["help"];
  const stray = [...flags.keys()].find((f) => !allowed.includes(f));
  if (stray) throw new UsageError(`${shown(stray)} does not apply to \`zeng ${name}\``);
  if (flags.has("help")) return { kind: "usage" };
  if (name === "mcp") return mcpCommand(rest, flags);
  if (name === "demo") {
    if (rest.length > 0)
      throw new UsageError(`unexpected argument ${quote(rest[0] as string)} after demo`);
    return { kind: "demo" };
  }
  if (rest.length > 1)
    throw new UsageError(`unexpected argument ${quote(rest[1] as string)} after trust DIR`);
  return rest[0] === undefined ? { kind: "trust" } : { kind: "trust", dir: rest[0] };
}
