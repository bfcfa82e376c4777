import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpError } from "../types.js";

/** The loopback listener a browser returns to after authorizing: one code per `expect`. */
export interface Loopback {
  /** The redirect URI to register and send (`http://127.0.0.1:PORT/callback`, or `localhost` for a fixed port). */
  readonly redirectUrl: string;
  /** Expects a browser to come back with `state` (call it before sending the browser). */
  prepare(state: string): void;
  /**
   * Waits for the browser to come back with `state`: resolves with the authorization code;
   * rejects with McpError (`unauthorized`) when the server sent an error instead, or when
   * `signal` aborts or `timeoutMs` passes first.
   */
  expect(state: string, signal: AbortSignal, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Deferred {
  readonly code: Promise<string>;
  /** The browser came back with this state (a second visit is refused). */
  arrived: boolean;
  resolve(code: string): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve: (code: string) => void = () => {};
  let reject: (error: Error) => void = () => {};
  const code = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  code.catch(() => {});
  return { code, arrived: false, resolve, reject };
}

/**
 * Answers the browser: a `GET /callback` with an expected state that has not arrived yet
 * settles its wait (with the code, or the server's refusal); anything else gets a 400 page.
 */
function callbackHandler(states: Map<string, Deferred>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const reply = (status: number, title: string, text: string) => {
      res.writeHead(status, {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
      });
      res.end(PAGE(title, escapeHtml(text)));
    };
    const state = url.searchParams.get("state") ?? "";
    const waiting = states.get(state);
    if (req.method !== "GET" || url.pathname !== "/callback" || !waiting || waiting.arrived)
      return reply(400, "Not expected", "Z Engine is not waiting for this page.");
    waiting.arrived = true;
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (error || !code) {
      const why = url.searchParams.get("error_description") ?? error ?? "no code";
      reply(400, "Login failed", `The server refused the login: ${why}. You can close this page.`);
      waiting.reject(
        new McpError("unauthorized", `the authorization server refused the login: ${why}`),
      );
      return;
    }
    reply(200, "Logged in", "Z Engine is logged in. You can close this page.");
    waiting.resolve(code);
  };
}

/** Binds `server` to 127.0.0.1 at `port` (0: a free one); rejects when it cannot. */
function listenOn(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * Listens on 127.0.0.1 (the loopback redirect of OAuth for native apps, RFC 8252) at `port`,
 * or a free port. Only `GET /callback` with a state it was told to expect (`prepare`, before
 * the browser is sent) counts, once: any other request or state gets a 400 page and changes
 * nothing, so a page the browser happens to open cannot inject a code. Rejects when the
 * port cannot be bound.
 */
export async function startLoopback(port?: number): Promise<Loopback> {
  const states = new Map<string, Deferred>();
  const server: Server = createServer(callbackHandler(states));
  await listenOn(server, port ?? 0);
  server.unref();
  const bound = (server.address() as AddressInfo).port;
  const host = port ? "localhost" : "127.0.0.1";
  return {
    redirectUrl: `http://${host}:${bound}/callback`,
    prepare(state) {
      if (!states.has(state)) states.set(state, deferred());
    },
    expect(state, signal, timeoutMs) {
      const waiting = states.get(state);
      if (!waiting)
        return Promise.reject(
          new McpError("unauthorized", "no authorization request is under way"),
        );
      return new Promise<string>((resolve, reject) => {
        const done = () => {
          states.delete(state);
          clearTimeout(timer);
          signal.removeEventListener("abort", onAbort);
        };
        const fail = (error: Error) => {
          done();
          reject(error);
        };
        const onAbort = () => fail(new McpError("cancelled", "the login was cancelled"));
        const timer = setTimeout(
          () =>
            fail(
              new McpError(
                "timeout",
                `no login came back within ${Math.round(timeoutMs / 1000)} s`,
              ),
            ),
          timeoutMs,
        );
        // Not unref'd: while a login is awaited, the timer keeps the process alive (the
        // server is unref'd, and `zeng mcp login` has nothing else to wait on).
        signal.addEventListener("abort", onAbort, { once: true });
        waiting.code.then(
          (code) => {
            done();
            resolve(code);
          },
          (error: Error) => {
            done();
            reject(error);
          },
        );
        if (signal.aborted) onAbort();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const waiting of states.values())
          waiting.reject(new McpError("cancelled", "the login was closed"));
        states.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
