import type { ServerResponse } from "node:http";
import { homedir } from "node:os";
import { basename } from "node:path";
import { existsSync } from "node:fs";
import { expandFolder, listFolders } from "./folders.js";
import {
  HttpError,
  json,
  type Route,
  type RouteContext,
  readObject,
  startStream,
} from "./http-io.js";
import type { SessionEntry, SessionHub } from "./session-hub.js";

/** What the page learns of the server at start: its folder, the home folder, a warning. */
export interface ServerInfo {
  readonly cwd: string;
  readonly home: string;
  /** Why model requests will fail (no API key, say), in words; absent when all is well. */
  readonly warning?: string;
}

/** A project folder of the sidebar and its sessions, newest first. */
export interface ProjectEntry {
  readonly root: string;
  readonly name: string;
  /** False when the folder is gone (its sessions still open). */
  readonly exists: boolean;
  readonly sessions: readonly SessionEntry[];
}

/** Groups sessions by folder: folders ordered by their newest session. */
export function projectsOf(sessions: readonly SessionEntry[]): ProjectEntry[] {
  const byRoot = new Map<string, SessionEntry[]>();
  for (const s of sessions) {
    const root = s.projectRoot ?? "";
    byRoot.set(root, [...(byRoot.get(root) ?? []), s]);
  }
  return [...byRoot.entries()]
    .map(([root, list]) => ({
      root,
      name: root ? basename(root) : "(no folder)",
      exists: root !== "" && existsSync(root),
      sessions: list.sort((a, b) => b.updatedAt - a.updatedAt),
    }))
    .sort((a, b) => (b.sessions[0]?.updatedAt ?? 0) - (a.sessions[0]?.updatedAt ?? 0));
}

/**
 * Writes to an event stream while it is open: a client that left, or the server's close
 * (which ends every stream while its sessions still emit), is no error.
 */
function send(response: ServerResponse, text: string): void {
  if (!response.writableEnded && !response.destroyed) response.write(text);
}

/** Stops a stream's subscription once the stream ends, by either side (at once if it has). */
function whenEnded(response: ServerResponse, streams: Set<ServerResponse>, stop: () => void) {
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    stop();
    streams.delete(response);
  };
  if (response.writableEnded || response.destroyed) return end();
  streams.add(response);
  response.once("close", end);
  response.once("finish", end);
}

/** Streams one session's items as server-sent events; `id:` is the cursor (Last-Event-ID resumes). */
async function sessionEvents(hub: SessionHub, ctx: RouteContext, streams: Set<ServerResponse>) {
  const { request, response, url } = ctx;
  const last = request.headers["last-event-id"] ?? url.searchParams.get("after") ?? "-1";
  const after = Number.parseInt(String(last), 10);
  const stop = await hub.subscribe(
    ctx.params.id ?? "",
    Number.isFinite(after) ? after : -1,
    (item) => {
      if (!response.headersSent && !response.destroyed) startStream(response);
      send(response, `id: ${item.cursor}\ndata: ${JSON.stringify(item)}\n\n`);
    },
  );
  if (!response.headersSent && !response.destroyed) startStream(response);
  send(response, ": ready\n\n");
  whenEnded(response, streams, stop);
}

/** Streams the changes every page follows (the inbox, the session list) as `data:` lines. */
function hubEvents(
  hub: SessionHub,
  ctx: RouteContext,
  streams: Set<ServerResponse>,
): Promise<void> {
  const { response } = ctx;
  startStream(response);
  send(response, ": ready\n\n");
  const stop = hub.watch((change) => send(response, `data: ${JSON.stringify(change)}\n\n`));
  whenEnded(response, streams, stop);
  return Promise.resolve();
}

/** The routes of the app as a whole: info, sessions, projects, the folder picker, the inbox, streams. */
export function appRoutes(
  hub: SessionHub,
  info: () => Promise<ServerInfo>,
  streams: Set<ServerResponse>,
): Route[] {
  const answer =
    (fn: (ctx: RouteContext) => Promise<unknown>, status = 200) =>
    async (ctx: RouteContext) =>
      json(ctx.response, status, await fn(ctx));
  return [
    { method: "GET", pattern: "/api/info", handle: answer(() => info()) },
    { method: "GET", pattern: "/api/sessions", handle: answer(() => hub.list()) },
    {
      method: "POST",
      pattern: "/api/sessions",
      handle: answer(async ({ request }) => {
        const body = await readObject(request).catch((error: unknown) => {
          throw error instanceof HttpError ? error : new HttpError("badRequest", String(error));
        });
        const folder = typeof body.folder === "string" ? body.folder.trim() : "";
        if (folder === "") throw new HttpError("badRequest", "choose a folder for the session");
        return { id: await hub.create(folder) };
      }, 201),
    },
    {
      method: "GET",
      pattern: "/api/projects",
      handle: answer(async () => projectsOf(await hub.list())),
    },
    {
      method: "GET",
      pattern: "/api/folders",
      handle: answer(async ({ url }) => {
        const at = expandFolder(url.searchParams.get("path") || homedir(), hub.cwd);
        return listFolders(at, url.searchParams.get("hidden") === "1").catch((error: Error) => {
          throw new HttpError("badRequest", error.message);
        });
      }),
    },
    { method: "GET", pattern: "/api/inbox", handle: answer(() => hub.inbox()) },
    { method: "GET", pattern: "/api/events", handle: (ctx) => hubEvents(hub, ctx, streams) },
    {
      method: "GET",
      pattern: "/api/sessions/:id/events",
      handle: (ctx) => sessionEvents(hub, ctx, streams),
    },
  ];
}
