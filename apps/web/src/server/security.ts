import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Why a request was refused (the status and a short reason for the body). */
export interface Refusal {
  readonly status: 401 | 403;
  readonly reason: string;
}

/** A fresh one-time token: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Constant-time comparison of a presented token with the server's. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request presents: the `x-zeng-token` header, else the `token` query parameter. */
export function presentedToken(request: IncomingMessage, url: URL): string | undefined {
  const header = request.headers["x-zeng-token"];
  if (typeof header === "string") return header;
  return url.searchParams.get("token") ?? undefined;
}

/**
 * Checks one request: the `Host` header must name this server by its loopback address
 * (`127.0.0.1:PORT` or `localhost:PORT`), so a DNS-rebound name is refused; an `Origin`, when
 * present, must be this server's own origin (no cross-site use), and state-changing requests
 * (anything but GET and HEAD) must carry one; the token must match. Returns undefined when the
 * request may proceed.
 */
export function checkRequest(
  request: IncomingMessage,
  url: URL,
  port: number,
  token: string,
): Refusal | undefined {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  const host = request.headers.host;
  if (!host || !allowedHosts.includes(host.toLowerCase())) {
    return { status: 403, reason: "unexpected Host header" };
  }
  const origin = request.headers.origin;
  const safe = request.method === "GET" || request.method === "HEAD";
  if (origin !== undefined) {
    if (!allowedHosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
      return { status: 403, reason: "cross-origin request refused" };
    }
  } else if (!safe) {
    return { status: 403, reason: "missing Origin header" };
  }
  const fetchSite = request.headers["sec-fetch-site"];
  if (fetchSite === "cross-site") return { status: 403, reason: "cross-site request refused" };
  if (!tokenMatches(presentedToken(request, url), token)) {
    return { status: 401, reason: "missing or wrong token" };
  }
  return undefined;
}
