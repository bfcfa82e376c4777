import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  editProjectSettings,
  editUserSettings,
  type Env,
  resolvePaths,
  type TomlTable,
} from "@z-engine/config";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output/result.js";
import { type McpAddArgs, type McpScope, parseMcpEdit } from "./mcp-args.js";

function serverOf(args: McpAddArgs): TomlTable {
  if (args.transport === "stdio")
    return {
      command: args.target,
      ...(args.args.length > 0 ? { args: [...args.args] } : {}),
      ...(Object.keys(args.env).length > 0 ? { env: { ...args.env } } : {}),
    };
  return {
    ...(args.transport === "sse" ? { type: "sse" } : {}),
    url: args.target,
    ...(Object.keys(args.headers).length > 0 ? { headers: { ...args.headers } } : {}),
  };
}

function table(parent: TomlTable, key: string): TomlTable {
  const existing = parent[key];
  if (typeof existing === "object" && existing !== null && !Array.isArray(existing))
    return existing as TomlTable;
  const created: TomlTable = {};
  parent[key] = created;
  return created;
}

/** `.mcp.json` (project scope): read, changed by `mutate`, written back as JSON. */
async function editMcpJson(root: string, mutate: (servers: TomlTable) => void): Promise<string> {
  const file = join(root, ".mcp.json");
  const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
    if (e.code === "ENOENT") return "{}";
    throw e;
  });
  const doc = JSON.parse(text) as TomlTable;
  mutate(table(doc, "mcpServers"));
  await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
  return file;
}

/** Edits the servers table of one scope's file; resolves with the file. */
async function editScope(
  scope: McpScope,
  root: string,
  env: Env,
  mutate: (servers: TomlTable) => void,
) {
  if (scope === "project") return editMcpJson(root, mutate);
  const edit = (doc: TomlTable) => mutate(table(table(doc, "mcp"), "servers"));
  const result =
    scope === "user"
      ? await editUserSettings(resolvePaths(env), edit)
      : await editProjectSettings(root, "local", edit);
  return result.file;
}

/**
 * `zeng mcp add|remove [-s local|project|user] ...` with Claude Code's flags: local writes
 * `.z-engine/settings.local.toml`, project `.mcp.json`, user the user's settings.toml.
 * Resolves 0, 2 for bad usage, 1 when the file cannot be changed (or has no such server).
 */
export async function runMcpEdit(argv: readonly string[], io: Io, env: Env): Promise<number> {
  const parsed = parseMcpEdit(argv);
  if (!parsed.ok) {
    io.stderr(`zeng: mcp ${argv[0]}: ${parsed.error}\n`);
    return EXIT.usage;
  }
  const args = parsed.value;
  const root = resolve(args.cwd ?? process.cwd());
  let found = true;
  try {
    const file = await editScope(args.scope, root, env, (servers) => {
      if (args.kind === "add") servers[args.name] = serverOf(args);
      else if (args.name in servers) delete servers[args.name];
      else found = false;
    });
    if (!found) {
      io.stderr(`zeng: mcp remove: no server ${JSON.stringify(args.name)} in ${file}\n`);
      return EXIT.failed;
    }
    io.stdout(
      `${args.kind === "add" ? "Added" : "Removed"} MCP server ${args.name} (${args.scope}: ${file}).\n`,
    );
    return EXIT.ok;
  } catch (error) {
    io.stderr(`zeng: mcp ${args.kind}: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}
