import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import type { McpServerStatus } from "@z-engine/protocol";
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output/result.js";

function line(s: McpServerStatus): string {
  const tools = s.state === "ready" || s.tools > 0 ? `, ${s.tools} tools` : "";
  const time = s.startMs !== undefined ? `, started in ${Math.round(s.startMs)} ms` : "";
  const why = s.error ? `: ${s.error}` : "";
  return `${s.name} (${s.transport}): ${s.state}${tools}${time}${why}\n`;
}

/**
 * `zeng mcp list [--cwd DIR]`: starts the MCP servers a session of the folder would start
 * (project ones only when it is trusted), prints one line per server with its state, tool
 * count, start time or failure reason, and stops them. A failed server is reported, not an
 * exit code: resolves 0, or 2 for a folder that does not exist.
 */
export async function runMcpList(dir: string | undefined, io: Io, env: Env): Promise<number> {
  const folder = resolve(dir ?? process.cwd());
  if (!(await stat(folder).catch(() => undefined))?.isDirectory()) {
    io.stderr(`zeng: mcp list: ${folder}: no such folder\n`);
    return EXIT.usage;
  }
  const engine = await createEngine({
    paths: resolvePaths(env),
    env,
    onEvent: () => {},
    catalogSource: "off",
    headless: true,
  });
  try {
    const check = await engine.checkMcpServers(folder);
    if (check.servers.length === 0) io.stdout("No MCP servers are configured.\n");
    for (const server of check.servers) io.stdout(line(server));
    if (check.withheld)
      io.stdout(
        `The project's own MCP servers start only once ${check.projectRoot} is trusted (zeng trust).\n`,
      );
    return EXIT.ok;
  } finally {
    await engine.shutdown();
  }
}
