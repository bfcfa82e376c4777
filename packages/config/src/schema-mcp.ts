/** The `[mcp.servers.<name>]` schemas of a settings file (built on first use). */
import { lazily, once } from "@z-engine/protocol";
import { z } from "zod";
import { httpUrl, stringList, stringMap, text } from "./schema-parts.js";

/** A server URL: http(s), or text holding `${VAR}` that expands to one when the server starts. */
const serverUrl = once(() =>
  z.union([
    httpUrl(),
    z.string().regex(/\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/, "expected an http(s) URL"),
  ]),
);

/** An https URL, or text holding `${VAR}`. */
const httpsUrl = once(() =>
  z.union([
    z.url({ protocol: /^https$/ }),
    z.string().regex(/\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/, "expected an https URL"),
  ]),
);

/**
 * `[mcp.servers.<name>.oauth]` of a remote server: a pre-registered `client_id` (and
 * `client_secret`, or a PKCS#8 `private_key` for private_key_jwt), the loopback
 * `callback_port`, `scopes` to ask for (space-separated), `auth_server_metadata_url` to skip
 * discovery, `client_metadata_url` (a client ID metadata document), `grant =
 * "client_credentials"` for a machine-to-machine server (no browser), or `grant =
 * "jwt_bearer"` for cross-app access (SEP-990: `idp_token_endpoint`, `idp_client_id` and the
 * user's `idp_id_token` from the enterprise IdP). Values may hold `${VAR}`.
 * `oauth = false` never authorizes (send a token in `headers` instead).
 */
export const McpOAuth = lazily(() =>
  z.union([
    z.literal(false),
    z.strictObject({
      client_id: text().optional(),
      client_secret: text().optional(),
      callback_port: z.int().min(1).max(65535).optional(),
      scopes: text().optional(),
      auth_server_metadata_url: httpsUrl().optional(),
      client_metadata_url: httpsUrl().optional(),
      grant: z.enum(["authorization_code", "client_credentials", "jwt_bearer"]).optional(),
      private_key: text().optional(),
      signing_algorithm: text().optional(),
      idp_token_endpoint: httpUrl().optional(),
      idp_client_id: text().optional(),
      idp_id_token: text().optional(),
    }),
  ]),
);
export type McpOAuth = z.infer<typeof McpOAuth>;

/**
 * One `[mcp.servers.<name>]`: stdio (`command`, `args`, `env`) or remote (`url`, `headers`;
 * streamable HTTP, or the legacy SSE transport with `type = "sse"`). Values may hold `${VAR}`
 * and `${VAR:-default}`, expanded when the server starts. `timeout` is in milliseconds (start
 * and each call's silence); `enabled = false` keeps the entry without starting it; `oauth`
 * (remote only) sets up the OAuth client, see {@link McpOAuth}.
 */
export const McpServer = lazily(() =>
  z
    .strictObject({
      type: z.enum(["stdio", "http", "sse"]).optional(),
      command: text().optional(),
      args: z.array(z.string()).optional(),
      env: stringMap().optional(),
      url: serverUrl().optional(),
      headers: stringMap().optional(),
      disabled_tools: stringList().optional(),
      timeout: z.int().positive().optional(),
      enabled: z.boolean().optional(),
      oauth: McpOAuth.optional(),
    })
    .refine((s) => (s.command === undefined) !== (s.url === undefined), {
      message: "an MCP server needs exactly one of `command` (stdio) or `url` (streamable HTTP)",
    })
    .refine((s) => s.type === undefined || (s.type === "stdio") === (s.command !== undefined), {
      message: '`type = "stdio"` needs `command`; `http` and `sse` need `url`',
    }),
);
export type McpServer = z.infer<typeof McpServer>;
