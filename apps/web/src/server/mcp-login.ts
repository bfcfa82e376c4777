import type { SessionHandle } from "@z-engine/engine";
import { HttpError, json, type Route, readObject, stringField } from "./http-io.js";
import type { SessionHub } from "./session-hub.js";

/** What starting a login answers: the page to open, or done already (a stored or refreshed token did). */
export type McpLoginStart =
  | { readonly url: string }
  | { readonly loggedIn: true; readonly tools: number };

/** What a logout did: whether tokens (or a client registration) were stored and are now gone. */
export interface McpLogoutOutcome {
  readonly forgot: boolean;
}

/** Throws an HttpError (notFound, in words) when `server` is not one of the session's. */
function knownServer(handle: SessionHandle, server: string): void {
  const names = handle.mcp.servers().map((s) => s.name);
  if (!names.includes(server))
    throw new HttpError(
      "notFound",
      `no MCP server ${server} in this session (${names.length ? `servers: ${names.join(", ")}` : "none configured"})`,
    );
}

/**
 * Logs out of `server`: its stored tokens are forgotten and it restarts (needing a login
 * again). Rejects with an HttpError in words for an unknown server or a store that fails.
 */
export async function mcpLogout(handle: SessionHandle, server: string): Promise<McpLogoutOutcome> {
  knownServer(handle, server);
  try {
    return { forgot: await handle.mcp.logout(server) };
  } catch (error) {
    throw new HttpError("badRequest", `logout of ${server} failed: ${messageOf(error)}`);
  }
}

/** How a login ended, as the page reads it. */
export type McpLoginOutcome =
  | { readonly ok: true; readonly tools: number }
  | { readonly ok: false; readonly error: string };

interface Pending {
  readonly outcome: Promise<McpLoginOutcome>;
  readonly abort: AbortController;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The MCP logins the page started, one per session and server: a new start cancels the one
 * before it; each outcome is kept until the next start so the page can read it late.
 */
export class McpLogins {
  private readonly pending = new Map<string, Pending>();

  /**
   * Starts the login of `server` and resolves as soon as the authorization page is known (the
   * login keeps waiting for the browser's callback), or with the result when no page was needed.
   * Rejects with an HttpError in words: server unknown, login failed, a page that is not a web address.
   */
  async start(sessionId: string, handle: SessionHandle, server: string): Promise<McpLoginStart> {
    knownServer(handle, server);
    const key = `${sessionId}\n${server}`;
    this.pending.get(key)?.abort.abort();
    const abort = new AbortController();
    let opened: (url: URL) => void = () => {};
    const page = new Promise<URL>((resolve) => {
      opened = resolve;
    });
    const outcome = handle.mcp
      .login(server, async (url) => opened(url), abort.signal)
      .then(
        (r): McpLoginOutcome => ({ ok: true, tools: r.tools }),
        (error: unknown): McpLoginOutcome => ({
          ok: false,
          error: `login to ${server} failed: ${messageOf(error)}`,
        }),
      );
    this.pending.set(key, { outcome, abort });
    const first = await Promise.race([page, outcome]);
    if (!(first instanceof URL)) {
      if (!first.ok) throw new HttpError("badRequest", first.error);
      return { loggedIn: true, tools: first.tools };
    }
    if (first.protocol !== "https:" && first.protocol !== "http:") {
      abort.abort();
      throw new HttpError(
        "badRequest",
        `login to ${server} failed: its authorization page is not a web address (${first.protocol})`,
      );
    }
    return { url: first.href };
  }

  /** Resolves with how the last login of `server` ended (waiting while it runs). Rejects (notFound) when none was started. */
  async outcome(sessionId: string, server: string): Promise<McpLoginOutcome> {
    const found = this.pending.get(`${sessionId}\n${server}`);
    if (!found) throw new HttpError("notFound", `no login to ${server} was started here`);
    return found.outcome;
  }

  /** Cancels every login still waiting (the server is closing). */
  close(): void {
    for (const { abort } of this.pending.values()) abort.abort();
  }
}

/**
 * `POST /api/sessions/:id/mcp/login` `{ server }`: starts a login ({@link McpLoginStart});
 * `GET /api/sessions/:id/mcp/login?server=…`: waits for its {@link McpLoginOutcome};
 * `POST /api/sessions/:id/mcp/logout` `{ server }`: logs out ({@link McpLogoutOutcome}).
 */
export function mcpLoginRoutes(hub: SessionHub, logins: McpLogins): Route[] {
  const pattern = "/api/sessions/:id/mcp/login";
  return [
    {
      method: "POST",
      pattern,
      handle: async ({ params, request, response }) => {
        const server = stringField(await readObject(request), "server");
        const id = params.id ?? "";
        json(response, 200, await logins.start(id, await hub.handle(id), server));
      },
    },
    {
      method: "GET",
      pattern,
      handle: async ({ params, url, response }) => {
        const server = url.searchParams.get("server") ?? "";
        if (!server) throw new HttpError("badRequest", "give server as a string");
        json(response, 200, await logins.outcome(params.id ?? "", server));
      },
    },
    {
      method: "POST",
      pattern: "/api/sessions/:id/mcp/logout",
      handle: async ({ params, request, response }) => {
        const server = stringField(await readObject(request), "server");
        json(response, 200, await mcpLogout(await hub.handle(params.id ?? ""), server));
      },
    },
  ];
}
