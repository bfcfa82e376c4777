import { McpError } from "./types.js";

const STATUS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** The McpError of `error` or of one of its causes (the SDK wraps what our provider throws). */
export function mcpErrorIn(error: unknown): McpError | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof McpError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The HTTP status an SDK transport error carries, if any. */
function httpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as Error | null)?.message ?? "";
  return typeof code === "number" && code >= 100 && code < 600 && /HTTP|SSE/i.test(name)
    ? code
    : undefined;
}

/**
 * A failure as the user should read it. An HTTP status gets its number and name, the
 * server's body (when it sent one), and for 401/403 what to do: `zeng mcp login <server>`, or
 * the token in the entry's headers. (The SDK alone says "Error POSTing to endpoint: " and
 * nothing else for a 401 with an empty body.) Other errors keep their message. Pure.
 */
export function failureText(error: unknown, server: string, ownAuthorization: boolean): string {
  const found = mcpErrorIn(error);
  if (found) return found.message;
  const message = error instanceof Error ? error.message : String(error);
  const status = httpStatus(error) ?? (/^Unauthorized$/.test(message) ? 401 : undefined);
  if (status === undefined) return message;
  const body = message
    .replace(/^(Streamable HTTP|SSE) error: /, "")
    .replace(/^Error POSTing to endpoint:\s*/, "")
    .replace(/^Unauthorized$/, "")
    .trim()
    .slice(0, 300);
  const head = `the server answered HTTP ${status} ${STATUS[status] ?? ""}`.trimEnd();
  const shown = body ? `${head}: ${body}` : head;
  if (status !== 401 && status !== 403) return shown;
  const hint = ownAuthorization
    ? "check the token in the entry's `headers`"
    : `log in with \`zeng mcp login ${server}\`, or put a token in the entry's \`headers\``;
  return `${shown} (${hint})`;
}
