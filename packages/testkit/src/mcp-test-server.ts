import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The absolute path of the MCP test server (a real server written with the SDK, one behaviour
 * per tool: echo, add, image, link, big, fail, slow, crash, sample, elicit, grow, env, pid,
 * flood, images, silent, compact; resources test://readme and test://big).
 * Start it with `node <path>` for stdio, `--http PORT` or `--sse PORT` for the remote
 * transports (it prints `listening <port>`), `--tools N` for N extra tools, `--delay-start MS`
 * for a slow start, `--odd-names` for tools whose names collide or run long (and a description
 * with hidden characters). With `MCP_TEST_LOG` set it appends `started <pid>`, `slow started`,
 * `silent started` and `cancelled <id>` lines to that file (and `tools/list` per listing with
 * `--log-lists`).
 */
export const MCP_TEST_SERVER: string = fileURLToPath(
  new URL("../mcp-server/test-server.mjs", import.meta.url),
);

/**
 * The absolute path of the OAuth-protected MCP test server: the SDK's own authorization
 * server router (metadata, dynamic registration, PKCE authorize, token with refresh,
 * revocation) and bearer middleware in front of a streamable HTTP server at `/mcp` with
 * sessions. Args: `--port N`, `--expires-in S`, `--consent` (an HTML form to click instead
 * of an immediate redirect), `--client-id ID [--client-secret S]` (pre-registered), `--no-dcr`.
 * Tools `whoami` and `admin` (which needs the `admin` scope: a 403 asks for a step-up).
 * With `MCP_TEST_LOG` it logs `<METHOD> <path> <status>` per request and `grant <type>`.
 */
export const OAUTH_MCP_SERVER: string = fileURLToPath(
  new URL("../mcp-server/oauth-server.mjs", import.meta.url),
);

/** A server started by {@link startHttpMcpServer}. */
export interface RunningHttpServer {
  readonly port: number;
  /** `http://127.0.0.1:PORT/mcp` */
  readonly url: string;
  /** Kills the server and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `script` (the test server with `--http 0`, or the OAuth server) in a child process
 * with `env`, and resolves once it prints `listening <port>`. Rejects when it exits first.
 */
export function startHttpMcpServer(
  script: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<RunningHttpServer> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill();
    });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) {
        const port = Number(m[1]);
        resolve({ port, url: `http://127.0.0.1:${port}/mcp`, stop });
      }
    });
    child.once("exit", (code) =>
      reject(new Error(`${script} exited with ${code} before listening`)),
    );
  });
}

/**
 * A scripted user agent for OAuth logins: opens `url` as a browser would and follows each
 * redirect (across hosts, as a browser does) until it reaches the loopback redirect URI
 * (`http://127.0.0.1:...` or `http://localhost:...` `/callback`), which it opens last.
 * Resolves with the final page's status; rejects after 10 hops or on a page that neither
 * redirects nor is the callback (a consent form needs a real browser: see `--consent`).
 */
export async function followAuthorization(url: URL | string): Promise<number> {
  let next = new URL(url);
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: "manual" });
    const location = response.headers.get("location");
    await response.body?.cancel();
    if (/^(127\.0\.0\.1|localhost)$/.test(next.hostname) && next.pathname === "/callback")
      return response.status;
    if (!location)
      throw new Error(
        `the authorization page ${next.href} answered ${response.status} without a redirect`,
      );
    next = new URL(location, next);
  }
  throw new Error("more than 10 redirects");
}
