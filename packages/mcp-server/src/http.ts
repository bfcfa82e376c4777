import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

/** The options of {@link serveMcpHttp}. */
export interface McpHttpOptions {
  /** Makes the MCP server of one client session (each `initialize` gets its own). */
  readonly createServer: () => McpServer;
  /** The port on 127.0.0.1 (0: any free one). */
  readonly port: number;
  /** The bearer token requests must carry (default: 32 random bytes, hex). */
  readonly token?: string;
}

/** A running HTTP endpoint: its URL (with the token), the token, and how to stop it. */
export interface McpHttpEndpoint {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  /** The URL with `?token=` (for clients that cannot set a header). */
  readonly urlWithToken: string;
  readonly token: string;
  readonly port: number;
  /** Closes every client session and the listener. */
  close(): Promise<void>;
}

const PATH = "/mcp";

function send(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: `Authorization: Bearer <token>`, else `?token=`. */
function tokenOf(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith("Bearer ")) return header.slice(7).trim();
  return url.searchParams.get("token") ?? undefined;
}

/**
 * Why a request is refused before MCP sees it, or undefined: a Host that is not this
 * endpoint's loopback name (DNS rebinding: a web page's name resolved to 127.0.0.1), an
 * Origin that is not one of them, a path other than /mcp, or a missing or wrong token.
 */
function refusal(req: IncomingMessage, port: number, token: string): [number, string] | undefined {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  if (!hosts.includes(req.headers.host ?? ""))
    return [403, "this endpoint answers only its loopback host"];
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.some((h) => origin === `http://${h}`))
    return [403, "cross-origin requests are refused"];
  const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
  if (url.pathname !== PATH) return [404, `the endpoint is ${PATH}`];
  if (!sameToken(tokenOf(req, url), token)) return [401, "missing or wrong token"];
  return undefined;
}

/**
 * Serves MCP over streamable HTTP on 127.0.0.1 (never another interface), at /mcp, behind a
 * bearer token (the `Authorization` header, or `?token=` for clients that cannot set one), with
 * Host and Origin checked against DNS rebinding. Each client session (`mcp-session-id`) has its
 * own server and transport. Resolves once listening; rejects when the port cannot be bound.
 */
export async function serveMcpHttp(options: McpHttpOptions): Promise<McpHttpEndpoint> {
  const token = options.token ?? randomBytes(32).toString("hex");
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let port = options.port;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refused = refusal(req, port, token);
    if (refused) return send(res, refused[0], refused[1]);
    const id = req.headers["mcp-session-id"];
    const existing = typeof id === "string" ? sessions.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (typeof id === "string") return send(res, 404, "no such session");
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await options.createServer().connect(transport);
    return transport.handleRequest(req, res);
  };
  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, (error as Error).message);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, "127.0.0.1", () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}${PATH}`;
  return {
    url,
    urlWithToken: `${url}?token=${token}`,
    token,
    port,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((t) => t.close()));
      sessions.clear();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
