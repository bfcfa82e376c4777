import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { checkRequest } from "./security.js";
import { HubError, type SessionHub } from "./session-hub.js";
import { type StaticFiles, serveStatic } from "./static-files.js";

/** A running web server. */
export interface WebServer {
  /** The page's address, with the one-time token: `http://127.0.0.1:PORT/?token=...`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  /** Stops accepting requests and ends every open event stream. Safe to call twice. */
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  response.end(JSON.stringify(value));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HubError("badRequest", "request body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HubError("badRequest", "the body is not JSON");
  }
}

const STATUS: Record<HubError["code"], number> = {
  notFound: 404,
  notOpen: 409,
  badRequest: 400,
  conflict: 409,
};

/** Streams a session's items as server-sent events; `id:` is the cursor (Last-Event-ID resumes). */
async function streamEvents(
  hub: SessionHub,
  id: string,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  streams: Set<ServerResponse>,
): Promise<void> {
  const last = request.headers["last-event-id"] ?? url.searchParams.get("after") ?? "-1";
  const after = Number.parseInt(String(last), 10);
  let stop: (() => void) | undefined;
  stop = await hub.subscribe(id, Number.isFinite(after) ? after : -1, (item) => {
    if (!response.headersSent) startStream(response);
    response.write(`id: ${item.cursor}\ndata: ${JSON.stringify(item)}\n\n`);
  });
  if (!response.headersSent) startStream(response);
  response.write(": ready\n\n");
  streams.add(response);
  request.on("close", () => {
    stop?.();
    stop = undefined;
    streams.delete(response);
  });
}

function startStream(response: ServerResponse): void {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
  });
}

type Handler = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  parts: string[],
) => Promise<void>;

function apiHandler(hub: SessionHub, streams: Set<ServerResponse>): Handler {
  return async (request, response, url, parts) => {
    const [, , id, what] = parts;
    const method = request.method;
    if (parts.length === 2 && method === "GET") return json(response, 200, await hub.list());
    if (parts.length === 2 && method === "POST") {
      const body = (await readJson(request)) as { folder?: unknown };
      if (typeof body.folder !== "string" || body.folder === "") {
        throw new HubError("badRequest", "give a folder");
      }
      return json(response, 201, { id: await hub.create(body.folder) });
    }
    if (!id) throw new HubError("notFound", "no such route");
    if (what === "events" && method === "GET") {
      return streamEvents(hub, id, request, response, url, streams);
    }
    if (what === "commands" && method === "POST") {
      // Loaded on first use: the server listens before any of zod's schemas load (start-up).
      const { parseEngineCommand } = await import("@z-engine/protocol");
      const parsed = parseEngineCommand(await readJson(request));
      if (!parsed.ok) throw new HubError("badRequest", `not a command: ${parsed.error.message}`);
      return json(response, 202, { turnId: (await hub.send(id, parsed.value)) ?? null });
    }
    if (what === "slash" && method === "GET") return json(response, 200, await hub.commands(id));
    throw new HubError("notFound", "no such route");
  };
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
  port = 0,
): Promise<WebServer> {
  const streams = new Set<ServerResponse>();
  const api = apiHandler(hub, streams);
  let actualPort = 0;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const refusal = checkRequest(request, url, actualPort, token);
    if (refusal) return json(response, refusal.status, { error: refusal.reason });
    const parts = url.pathname.split("/").filter(Boolean);
    const handle = parts[0] === "api" && parts[1] === "sessions" ? api : undefined;
    if (!handle) return serveStatic(files, url, token, response);
    handle(request, response, url, parts).catch((error: unknown) => {
      if (response.headersSent) return response.end();
      if (error instanceof HubError)
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
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
