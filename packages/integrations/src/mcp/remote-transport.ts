import type { StoredOAuthProvider } from "./oauth/provider.js";
import { type ExpandEnv, expandMap, expandVars } from "./expand.js";
import { McpConfigError, missingError, type OpenedTransport } from "./opened-transport.js";
import type { McpOAuthSettings, McpServerSpec } from "./types.js";

/** A remote spec with `${VAR}` expanded: its URL, headers and OAuth settings. */
export interface ExpandedRemote {
  readonly url: URL;
  readonly headers: Record<string, string> | undefined;
  readonly oauth: McpOAuthSettings | false;
}

/**
 * Expands a remote spec's URL, headers and OAuth values from `env`. Throws McpConfigError for
 * an unset variable (naming it) or a URL that is not http(s).
 */
export function expandRemote(spec: McpServerSpec, env: ExpandEnv): ExpandedRemote {
  const missing: string[] = [];
  const url = expandVars(spec.url ?? "", env);
  missing.push(...url.missing);
  const headers = expandMap(spec.headers, env, missing);
  let oauth: McpOAuthSettings | false = spec.oauth ?? {};
  if (oauth) {
    const text = (value: string | undefined) => {
      if (value === undefined) return undefined;
      const e = expandVars(value, env);
      missing.push(...e.missing);
      return e.text;
    };
    const secret = text(oauth.clientSecret);
    const key = text(oauth.privateKey);
    const idToken = text(oauth.idpIdToken);
    oauth = {
      ...oauth,
      ...(secret !== undefined ? { clientSecret: secret } : {}),
      ...(key !== undefined ? { privateKey: key } : {}),
      ...(idToken !== undefined ? { idpIdToken: idToken } : {}),
    };
  }
  if (missing.length > 0) throw missingError(missing);
  let parsed: URL;
  try {
    parsed = new URL(url.text);
  } catch {
    throw new McpConfigError(`not a valid URL: ${url.text}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new McpConfigError(`not an http(s) URL: ${url.text}`);
  return { url: parsed, headers, oauth };
}

/** Whether the entry sends its own `Authorization` header (then OAuth stays out of the way). */
export function hasOwnAuthorization(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((k) => k.toLowerCase() === "authorization");
}

/** The `scope` of an `insufficient_scope` challenge, or undefined. */
function insufficientScope(response: Response): string | undefined {
  if (response.status !== 403) return undefined;
  const header = response.headers.get("www-authenticate") ?? "";
  if (!/error="?insufficient_scope/.test(header)) return undefined;
  return /scope="([^"]*)"/.exec(header)?.[1] ?? "";
}

/** A fetch that tells the provider when the server asks for more scope (a step-up). */
function watchScope(provider: StoredOAuthProvider): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const scope = insufficientScope(response);
    if (scope !== undefined) provider.stepUp(scope);
    return response;
  };
}

/**
 * The SDK transport for a remote server: streamable HTTP, or the legacy SSE transport,
 * sending the headers on every request (SSE also on its event stream) and, when given, the
 * OAuth provider's token. Closing a streamable HTTP connection first sends the DELETE that
 * ends the server's session (`terminate`). Loads the SDK's transport module only here.
 */
export async function remoteTransport(
  spec: McpServerSpec,
  remote: ExpandedRemote,
  authProvider: StoredOAuthProvider | undefined,
): Promise<OpenedTransport> {
  const { url, headers } = remote;
  const requestInit: RequestInit = headers ? { headers } : {};
  const auth = authProvider ? { authProvider, fetch: watchScope(authProvider) } : {};
  if (spec.type === "sse") {
    const { SSEClientTransport } = await import("@modelcontextprotocol/sdk/client/sse.js");
    const transport = new SSEClientTransport(url, {
      requestInit,
      ...auth,
      ...(headers
        ? {
            eventSourceInit: {
              fetch: (input, init) =>
                fetch(input, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }),
            },
          }
        : {}),
    });
    return {
      transport,
      pid: () => null,
      stderrTail: () => "",
      finishAuth: (code) => transport.finishAuth(code),
    };
  }
  const { StreamableHTTPClientTransport } = await import(
    "@modelcontextprotocol/sdk/client/streamableHttp.js"
  );
  const transport = new StreamableHTTPClientTransport(url, { requestInit, ...auth });
  return {
    transport,
    pid: () => null,
    stderrTail: () => "",
    finishAuth: (code) => transport.finishAuth(code),
    terminate: () => transport.terminateSession(),
  };
}
