import { subscribe, unsubscribe } from "node:diagnostics_channel";

/**
 * Node's fetch (undici), and llm's own node:http transport, publish here once a request's
 * body is written.
 */
const BODY_SENT = "undici:request:bodySent";

/** What a watch of one request gives its caller. */
export interface SentWatch {
  /** Calls `onSent` now unless it ran already; rethrows what it threw in the watch. */
  sent(): void;
  /** Ends the watch (idempotent). */
  stop(): void;
}

/** The origin and the path prefix of a base URL, or null when it does not parse. */
function endpointOf(baseUrl: string): { origin: string; path: string } | null {
  try {
    const url = new URL(baseUrl);
    return { origin: url.origin, path: url.pathname.replace(/\/+$/, "") };
  } catch {
    return null;
  }
}

/** True when a request path (which may carry a query) is `prefix` or below it. */
function under(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charAt(prefix.length);
  return next === "" || next === "/" || next === "?";
}

function originOf(value: unknown): string | null {
  if (typeof value !== "string" && !(value instanceof URL)) return null;
  try {
    return new URL(String(value)).origin;
  } catch {
    return null;
  }
}

/**
 * Calls `onSent` once, at the first of: the transport (`nodeFetch` or Node's fetch)
 * reporting a request body written to `baseUrl` (its origin, under its path), which comes
 * before the response's headers by the provider's time to answer; or the caller's `sent()`
 * (once the stream opened, for a fetch that reports nothing). A throw from `onSent` in the report is kept and rethrown by `sent()`,
 * so it surfaces where the caller handles its own. The report names no caller: another
 * request to the same endpoint in the same moments (a subagent's) may trigger it, which only
 * says, a little early, that a request went out.
 */
export function watchRequestSent(baseUrl: string, onSent: () => void): SentWatch {
  const endpoint = endpointOf(baseUrl);
  let called = false;
  let failed = false;
  let failure: unknown;
  const call = () => {
    if (called) return;
    called = true;
    try {
      onSent();
    } catch (error) {
      failed = true;
      failure = error;
    }
  };
  const onReport = (message: unknown) => {
    const request = (message as { request?: { origin?: unknown; path?: unknown } } | null)?.request;
    if (!endpoint || !request || originOf(request.origin) !== endpoint.origin) return;
    if (typeof request.path !== "string" || !under(request.path, endpoint.path)) return;
    stop();
    call();
  };
  let watching = endpoint !== null;
  const stop = () => {
    if (!watching) return;
    watching = false;
    unsubscribe(BODY_SENT, onReport);
  };
  if (watching) subscribe(BODY_SENT, onReport);
  return {
    sent() {
      stop();
      call();
      if (failed) {
        failed = false;
        throw failure;
      }
    },
    stop,
  };
}
