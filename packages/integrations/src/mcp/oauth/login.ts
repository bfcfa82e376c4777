import { McpConnection } from "../connection.js";
import type { ExpandEnv } from "../expand.js";
import { expandRemote } from "../remote-transport.js";
import { McpError, type McpServerSpec } from "../types.js";
import { type Loopback, startLoopback } from "./loopback.js";
import type { McpTokenStore } from "./store.js";

/** How long a person has to finish one authorization page in the browser. */
export const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** What a login is given. */
export interface McpLoginRequest {
  readonly spec: McpServerSpec;
  readonly env: ExpandEnv;
  readonly store: McpTokenStore;
  /** Sends the user's browser to the authorization page (the CLI opens it; tests script it). */
  readonly open: (url: URL) => Promise<void>;
  readonly signal?: AbortSignal;
  /** How long to wait for the browser to come back from each page (default 5 minutes). */
  readonly timeoutMs?: number;
  readonly clock?: () => number;
}

/** What a login did. */
export interface McpLoginResult {
  /** The tools the server lists once logged in. */
  readonly tools: number;
  /** How many times the browser was sent to an authorization page (0: a stored or refreshed token did). */
  readonly authorizations: number;
}

/**
 * The loopback a login listens on: the entry's `callback_port`, else the port the stored
 * client was registered with (an authorization server checks the redirect URI), else any
 * free port, in which case a client registered for another port is forgotten (it would be
 * refused) and registered anew.
 */
async function loopbackFor(request: McpLoginRequest, url: string): Promise<Loopback> {
  const settings = request.spec.oauth || {};
  if (settings.callbackPort) return startLoopback(settings.callbackPort);
  const stored = await request.store.read(request.spec.name, url);
  const registered =
    stored?.client && "redirect_uris" in stored.client ? stored.client.redirect_uris : [];
  const port = Number(new URL(registered?.[0] ?? "http://127.0.0.1:0/").port || 0);
  if (port > 0 && !settings.clientId) {
    try {
      return await startLoopback(port);
    } catch {
      await request.store.update(request.spec.name, url, ({ client: _gone, ...rest }) => rest);
    }
  }
  return startLoopback();
}

/**
 * Logs in to a remote server with OAuth 2.1: on its 401, discovery (protected resource and
 * authorization server metadata), a registration when needed (dynamic, or the client ID
 * metadata document), then PKCE authorization code with the `resource` parameter, the
 * browser sent to the authorization page by `open` and brought back to a loopback listener;
 * the tokens go to the store. A step-up (`insufficient_scope`) sends the browser again, at
 * most three times. A client-credentials entry logs in without a browser. Resolves once the
 * server lists its tools; rejects with McpError (`unauthorized`, `timeout`, `cancelled`,
 * `protocol`) saying why. Stdio servers have nothing to log in to (`protocol`).
 */
export async function loginMcpServer(request: McpLoginRequest): Promise<McpLoginResult> {
  if (request.spec.type === "stdio")
    throw new McpError(
      "protocol",
      `"${request.spec.name}" is a stdio server: there is nothing to log in to`,
    );
  if (request.spec.oauth === false)
    throw new McpError("protocol", `"${request.spec.name}" has OAuth switched off (oauth = false)`);
  const { url } = expandRemote(request.spec, request.env);
  const loopback = await loopbackFor(request, url.href);
  let authorizations = 0;
  const conn = new McpConnection({
    spec: request.spec,
    env: request.env,
    // A remote server only (stdio was refused above): a login starts no program.
    spawn: () => {
      throw new McpError("protocol", "a login starts no program");
    },
    ...(request.clock ? { clock: request.clock } : {}),
    auth: {
      store: request.store,
      login: {
        loopback,
        open: async (page) => {
          authorizations++;
          await request.open(page);
        },
        timeoutMs: request.timeoutMs ?? LOGIN_TIMEOUT_MS,
        signal: request.signal ?? new AbortController().signal,
      },
    },
  });
  try {
    await conn.start();
    if (conn.state !== "ready")
      throw new McpError(
        "unauthorized",
        `logging in to "${request.spec.name}" failed: ${conn.error ?? conn.state}`,
      );
    return { tools: conn.tools.length, authorizations };
  } finally {
    await conn.close();
    await loopback.close();
  }
}

/** Forgets a server's tokens and client registration at its URL. Resolves true when there were any. */
export async function logoutMcpServer(
  spec: McpServerSpec,
  env: ExpandEnv,
  store: McpTokenStore,
): Promise<boolean> {
  if (spec.type === "stdio") return false;
  const { url } = expandRemote(spec, env);
  return store.clear(spec.name, url.href);
}

/**
 * Whether tokens of a remote server are stored at its URL (a login that a logout would
 * forget). Never rejects: false for a stdio server, a URL that cannot be expanded, or a
 * record without tokens (a client registration left by a login that did not finish).
 */
export async function hasMcpLogin(
  spec: McpServerSpec,
  env: ExpandEnv,
  store: McpTokenStore,
): Promise<boolean> {
  if (spec.type === "stdio") return false;
  try {
    const { url } = expandRemote(spec, env);
    return (await store.read(spec.name, url.href))?.tokens !== undefined;
  } catch {
    return false;
  }
}
