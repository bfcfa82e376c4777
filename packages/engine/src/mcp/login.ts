import { realpath } from "node:fs/promises";
import { loadSettings, type Paths, type TrustStore } from "@z-engine/config";
import {
  loginMcpServer,
  logoutMcpServer,
  McpError,
  type McpLoginResult,
  type McpServerSpec,
} from "@z-engine/integrations";
import { mcpTokenStore } from "./session-hooks.js";
import { mcpContext } from "../launch/child-launch.js";
import { serverEntries } from "./specs.js";

/** Where a login without a session finds its server: the folder's effective settings. */
export interface McpLoginContext {
  readonly folder: string;
  readonly paths: Paths;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly trustStore: TrustStore;
}

/**
 * The entry of `server` as a session of `folder` would start it. An untrusted project's own
 * servers are not in the effective settings, so they are refused with the reason: a project
 * nobody trusted never triggers a login. Rejects with McpError (`protocol`).
 */
async function entryOf(ctx: McpLoginContext, server: string): Promise<McpServerSpec> {
  const projectRoot = await realpath(ctx.folder);
  const loaded = loadSettings({
    env: ctx.env,
    paths: ctx.paths,
    projectRoot,
    trusted: ctx.trustStore,
  });
  // As a session builds them: a project's entry gets no provider key through `${VAR}`.
  const childEnv = Object.fromEntries(
    Object.entries(ctx.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const context = mcpContext({ childEnv, paths: ctx.paths }, projectRoot, loaded);
  const entry = serverEntries(loaded.settings.mcp.servers, context).find(
    (e) => e.spec.name === server,
  );
  if (entry) return entry.spec;
  const project = loaded.layers.some(
    (l) => (l.level === "project" || l.level === "local") && l.values.mcp?.servers?.[server],
  );
  if (project && !loaded.trusted)
    throw new McpError(
      "protocol",
      `"${server}" is a server of the project ${projectRoot}, which is not trusted: it starts (and logs in) only once the folder is trusted (zeng trust)`,
    );
  const names = Object.keys(loaded.settings.mcp.servers);
  throw new McpError(
    "protocol",
    `no MCP server named "${server}" is configured (servers: ${names.length > 0 ? names.join(", ") : "none"})`,
  );
}

/**
 * `zeng mcp login <server>`: logs in to a remote server of the folder's settings through the
 * browser (`open`), the tokens kept in `<data>/mcp-auth`. Rejects with McpError saying why.
 */
export async function loginFromSettings(
  ctx: McpLoginContext,
  server: string,
  open: (url: URL) => Promise<void>,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<McpLoginResult> {
  const spec = await entryOf(ctx, server);
  return loginMcpServer({
    spec,
    env: ctx.env,
    store: mcpTokenStore(ctx.paths.dataDir),
    open,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
}

/** `zeng mcp logout <server>`: forgets its tokens. Resolves true when there were any. */
export async function logoutFromSettings(ctx: McpLoginContext, server: string): Promise<boolean> {
  const spec = await entryOf(ctx, server);
  return logoutMcpServer(spec, ctx.env, mcpTokenStore(ctx.paths.dataDir));
}
