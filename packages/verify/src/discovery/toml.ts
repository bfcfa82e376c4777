import { parse } from "smol-toml";
import type { DiscoveryContext } from "./ecosystem.js";
import type { Folder } from "./walk.js";

export type TomlTable = Record<string, unknown>;

/**
 * A TOML file of a folder parsed into a table; undefined when missing, unreadable or
 * malformed (reported as a problem when it is this context's folder).
 */
export async function readToml(
  ctx: DiscoveryContext,
  name: string,
  folder: Folder = ctx.folder,
): Promise<TomlTable | undefined> {
  const text = await ctx.read(name, folder);
  if (text === undefined) return undefined;
  try {
    return parse(text) as TomlTable;
  } catch (error) {
    if (folder === ctx.folder) {
      ctx.problem(name, `not valid TOML: ${(error as Error).message.split("\n")[0]}`);
    }
    return undefined;
  }
}

/** A nested table by path (`tool.pytest.ini_options`), or undefined. */
export function tableAt(table: TomlTable | undefined, path: string): TomlTable | undefined {
  let at: unknown = table;
  for (const key of path.split(".")) {
    if (typeof at !== "object" || at === null || Array.isArray(at)) return undefined;
    at = (at as TomlTable)[key];
  }
  return typeof at === "object" && at !== null && !Array.isArray(at)
    ? (at as TomlTable)
    : undefined;
}
