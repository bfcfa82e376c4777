import type { IncomingMessage, ServerResponse } from "node:http";

/** An error the HTTP layer turns into a status and a message in words. */
export class HttpError extends Error {
  constructor(
    readonly code: "notFound" | "notOpen" | "badRequest" | "conflict",
    message: string,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

/** The status of each error code. */
export const STATUS: Record<HttpError["code"], number> = {
  notFound: 404,
  notOpen: 409,
  badRequest: 400,
  conflict: 409,
};

/** Bodies of most requests: at most 1 MiB. */
export const MAX_BODY = 1024 * 1024;
/** A command may carry images (base64): at most 24 MiB. */
export const MAX_COMMAND_BODY = 24 * 1024 * 1024;

/** Sends a JSON answer, never cached. */
export function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
  });
  response.end(JSON.stringify(value));
}

/** Reads a JSON body of at most `limit` bytes. Rejects with an HttpError (`badRequest`) in words. */
export async function readJson(request: IncomingMessage, limit = MAX_BODY): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError("badRequest", "request body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError("badRequest", "the body is not JSON");
  }
}

/** A JSON object body, else a `badRequest` HttpError. */
export async function readObject(
  request: IncomingMessage,
  limit = MAX_BODY,
): Promise<Record<string, unknown>> {
  const body = await readJson(request, limit);
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new HttpError("badRequest", "the body must be a JSON object");
  return body as Record<string, unknown>;
}

/** A field that must be a non-empty string. */
export function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== "string" || value === "")
    throw new HttpError("badRequest", `give ${name} as a string`);
  return value;
}

/** Starts a server-sent event stream. */
export function startStream(response: ServerResponse): void {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
  });
}

/** What a route gets: the request, the answer, the URL and the path's parameters. */
export interface RouteContext {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
}

/** A route: a method, a pattern such as `/api/sessions/:id/changes`, and its handler. */
export interface Route {
  readonly method: "GET" | "POST";
  readonly pattern: string;
  readonly handle: (ctx: RouteContext) => Promise<void>;
}

/** The route matching a request and its parameters, or undefined. */
export function matchRoute(
  routes: readonly Route[],
  method: string | undefined,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  const parts = path.split("/").filter(Boolean);
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.pattern.split("/").filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((p, i) => {
      const part = parts[i] ?? "";
      if (p.startsWith(":")) {
        const decoded = safeDecode(part);
        if (decoded === undefined) return false;
        params[p.slice(1)] = decoded;
        return true;
      }
      return p === part;
    });
    if (ok) return { route, params };
  }
  return undefined;
}

function safeDecode(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}
