// `zeng mcp serve`: the engine behind an MCP server (stdio, or streamable HTTP with --port).
import { writeFile } from "node:fs/promises";
import { type Env, resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import { doorFolder, doorOverrides } from "./acp-command.js";
import { guardConsole } from "./console-guard.js";
import type { DoorCommand } from "./doors-args.js";
import { EXIT } from "./exit-codes.js";
import type { Io } from "./output/result.js";
import { watchSignals } from "./signals.js";

type ServeArgs = Extract<DoorCommand, { kind: "mcpServe" }>["args"];

/**
 * `zeng mcp serve`: an MCP server whose `task` and `reply` tools run prompts in headless
 * sessions (every ask is denied: a caller may do what the folder's settings allow). On stdio
 * it serves the process that started it until stdin ends; with `--port` it listens on
 * 127.0.0.1 behind a token (written to `--token-file` with mode 0600, else printed on stderr
 * with the URL) until SIGINT or SIGTERM. Resolves 0, 1 when the port cannot be bound, 2 for a
 * bad `--cwd`.
 */
export async function runMcpServe(
  args: ServeArgs,
  io: Io,
  env: Env,
  version: string,
): Promise<number> {
  guardConsole(io.stderr);
  const folder = await doorFolder(args.cwd, io);
  if (!folder) return EXIT.usage;
  const paths = resolvePaths(env);
  const engine = await createEngine({ paths, env, catalogSource: "settings", headless: true });
  const { createTaskServer, serveMcpHttp, serveMcpStdio } = await import("@z-engine/mcp-server");
  const ran = new Set<string>();
  const server = () =>
    createTaskServer({
      engine,
      folder,
      dataDir: paths.dataDir,
      session: doorOverrides(args),
      serverInfo: { name: "zeng", version },
      ran,
    });
  try {
    if (args.port === undefined) {
      await (await serveMcpStdio(server())).closed;
      return EXIT.ok;
    }
    const endpoint = await serveMcpHttp({ createServer: server, port: args.port }).catch(
      (error: unknown) => {
        io.stderr(
          `zeng: mcp serve: cannot listen on 127.0.0.1:${args.port}: ${(error as Error).message}\n`,
        );
        return undefined;
      },
    );
    if (!endpoint) return EXIT.failed;
    if (args.tokenFile) await writeFile(args.tokenFile, `${endpoint.token}\n`, { mode: 0o600 });
    io.stderr(
      `zeng mcp serve: listening on ${endpoint.url} (Authorization: Bearer <token>)\n` +
        (args.tokenFile
          ? `token in ${args.tokenFile}\n`
          : `url with token: ${endpoint.urlWithToken}\n`),
    );
    await new Promise<void>((resolve) => {
      const signals = watchSignals(() => {
        signals.dispose();
        resolve();
      });
    });
    await endpoint.close();
    return EXIT.ok;
  } finally {
    await engine.shutdown();
  }
}
