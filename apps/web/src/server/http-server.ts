import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { appRoutes, type ServerInfo } from "./app-routes.js";
import { HttpError, json, matchRoute, STATUS } from "./http-io.js";
import { McpLogins, mcpLoginRoutes } from "./mcp-login.js";
import { checkRequest } from "./security.js";
import type { SessionHub } from "./session-hub.js";
import { sessionRoutes } from "./session-routes.js";
import { type StaticFiles, serveStatic } from "./static-files.js";

/** A running web server. */
export interface WebServer {
  /** The page's address, with the one-time token: `http://127.0.0.1:PORT/?token=...`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Stops accepting requests, cancels MCP logins still waiting and ends every open event stream. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Starts the HTTP server on 127.0.0.1 (port 0: a random free one). Every request is checked
 * (`checkRequest`: Host, Origin, token) before anything else; the page, its assets and the
 * API live under one origin. Rejects when the port cannot be bound.
 */
export async function listen(
  hub: SessionHub,
  files: StaticFiles,
  token: string,
  info: () => Promise<ServerInfo>,
  port = 0,
): Promise<WebServer> {
  const streams = new Set<ServerResponse>();
  const logins = new McpLogins();
  const routes = [
    ...appRoutes(hub, info, streams),
    ...sessionRoutes(hub),
    ...mcpLoginRoutes(hub, logins),
  ];
  let actualPort = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const refusal = checkRequest(request, url, actualPort, token);
    if (refusal) return json(response, refusal.status, { error: refusal.reason });
    if (!url.pathname.startsWith("/api/")) return serveStatic(files, url, token, response);
    const found = matchRoute(routes, request.method, url.pathname);
    if (!found) return json(response, 404, { error: "no such route" });
    found.route.handle({ request, response, url, params: found.params }).catch((error: unknown) => {
      if (response.headersSent) return response.end();
      if (error instanceof HttpError)
        return json(response, STATUS[error.code], { error: error.message });
      json(response, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  actualPort = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${actualPort}/?token=${token}`,
    port: actualPort,
    token,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        logins.close();
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
