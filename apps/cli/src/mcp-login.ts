import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { type Env, resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import { EXIT } from "./exit-codes.js";
import { openInBrowser } from "./open-browser.js";
import type { Io } from "./output/result.js";

/** What `zeng mcp login|logout` was asked. */
export interface McpLoginCommand {
  readonly kind: "mcpLogin" | "mcpLogout";
  readonly server: string;
  readonly cwd?: string;
}

/**
 * `zeng mcp login SERVER`: logs in to a remote MCP server of the folder's settings with
 * OAuth in the user's browser (the page is printed too, for a browser elsewhere), and keeps
 * the tokens in the data folder; `zeng mcp logout SERVER` forgets them. Resolves with the
 * exit code: 0 done, 1 failed (the reason on stderr), 2 for a folder that does not exist,
 * 130 when interrupted while waiting for the browser.
 */
export async function runMcpLogin(command: McpLoginCommand, io: Io, env: Env): Promise<number> {
  const folder = resolve(command.cwd ?? process.cwd());
  const verb = command.kind === "mcpLogin" ? "login" : "logout";
  if (!(await stat(folder).catch(() => undefined))?.isDirectory()) {
    io.stderr(`zeng: mcp ${verb}: ${folder}: no such folder\n`);
    return EXIT.usage;
  }
  const engine = await createEngine({
    paths: resolvePaths(env),
    env,
    onEvent: () => {},
    catalogSource: "off",
    headless: true,
  });
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.once("SIGINT", interrupt);
  try {
    if (command.kind === "mcpLogout") {
      const had = await engine.mcpLogout(folder, command.server);
      io.stdout(
        had ? `Logged out of ${command.server}.\n` : `${command.server} had no stored login.\n`,
      );
      return EXIT.ok;
    }
    const result = await engine.mcpLogin(
      folder,
      command.server,
      async (url) => {
        io.stderr(`Log in to ${command.server} in your browser: ${url.href}\n`);
        if (!(await openInBrowser(url, env)))
          io.stderr("(No browser could be opened here: open the page above yourself.)\n");
      },
      { signal: stop.signal },
    );
    io.stdout(`Logged in to ${command.server} (${result.tools} tools).\n`);
    return EXIT.ok;
  } catch (error) {
    io.stderr(`zeng: mcp ${verb} ${command.server}: ${(error as Error).message}\n`);
    return stop.signal.aborted ? EXIT.cancelled : EXIT.failed;
  } finally {
    process.off("SIGINT", interrupt);
    await engine.shutdown();
  }
}
