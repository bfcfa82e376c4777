import type { McpOAuth, McpServer, McpServerSource } from "@z-engine/config";
import { isProviderKeyVariable, signalGroup, spawnChild } from "@z-engine/host";
import {
  type ChildSpawner,
  type McpOAuthSettings,
  type McpServerSpec,
  withoutVariables,
} from "@z-engine/integrations";
import type { ChildLaunch } from "../launch/child-launch.js";

/** One configured server as the hub runs it: the client's spec and the engine's own keys. */
export interface ServerEntry {
  readonly spec: McpServerSpec;
  readonly enabled: boolean;
  readonly disabledTools: ReadonlySet<string>;
  /**
   * The entry's settings and the folder and environment its child runs in, as text: a
   * different key means the entry changed (restart it), also when trust moves a user's server
   * into the project or the settings' `[env]` changed.
   */
  readonly key: string;
  /** Starts its stdio child through host's door: the launch's folder and scrubbed environment. */
  readonly spawn: ChildSpawner;
  /** Model-provider key variables left empty because the project defined the entry. */
  readonly withheld: readonly string[];
}

/** What the entries are built with besides the settings. */
export interface ServerContext {
  /** Where each entry came from (config's `mcpServerSources`); a missing name counts as the user's. */
  readonly sources: Readonly<Record<string, McpServerSource>>;
  /**
   * Where the user's servers start: the project once trusted, the neutral folder before
   * (see `childLaunch`). A project's servers run only when trusted, in the project.
   */
  readonly launch: ChildLaunch;
}

/** A spawner over host's door: the launch's folder and environment, the entry's own variables. */
export function doorSpawner(launch: ChildLaunch): ChildSpawner {
  return (request) => {
    const child = spawnChild({
      program: request.program,
      args: request.args,
      folder: launch.folder,
      env: launch.env,
      ...(request.env ? { extraEnv: request.env } : {}),
    });
    return { process: child, signalGroup: (signal) => signalGroup(child.pid, signal) };
  };
}

/** The entry with every provider-key `${VAR}` taken out of its values, and the names taken. */
function withoutProviderKeys(s: McpServer): { server: McpServer; withheld: string[] } {
  const withheld: string[] = [];
  const strip = (text: string) => {
    const out = withoutVariables(text, isProviderKeyVariable);
    withheld.push(...out.removed);
    return out.text;
  };
  const map = (m: Readonly<Record<string, string>> | undefined) =>
    m && Object.fromEntries(Object.entries(m).map(([k, v]) => [k, strip(v)]));
  const server: McpServer = {
    ...s,
    ...(s.command !== undefined ? { command: strip(s.command) } : {}),
    ...(s.args ? { args: s.args.map(strip) } : {}),
    ...(s.env ? { env: map(s.env) } : {}),
    ...(s.url !== undefined ? { url: strip(s.url) } : {}),
    ...(s.headers ? { headers: map(s.headers) } : {}),
  };
  return { server, withheld: [...new Set(withheld)] };
}

/** An entry's `oauth` (snake_case settings) as the client's settings. */
function oauthSettings(o: McpOAuth): McpOAuthSettings | false {
  if (o === false) return false;
  return {
    ...(o.client_id ? { clientId: o.client_id } : {}),
    ...(o.client_secret ? { clientSecret: o.client_secret } : {}),
    ...(o.callback_port ? { callbackPort: o.callback_port } : {}),
    ...(o.scopes ? { scopes: o.scopes } : {}),
    ...(o.auth_server_metadata_url ? { authServerMetadataUrl: o.auth_server_metadata_url } : {}),
    ...(o.client_metadata_url ? { clientMetadataUrl: o.client_metadata_url } : {}),
    ...(o.grant ? { grant: o.grant } : {}),
    ...(o.private_key ? { privateKey: o.private_key } : {}),
    ...(o.signing_algorithm ? { signingAlgorithm: o.signing_algorithm } : {}),
    ...(o.idp_token_endpoint ? { idpTokenEndpoint: o.idp_token_endpoint } : {}),
    ...(o.idp_client_id ? { idpClientId: o.idp_client_id } : {}),
    ...(o.idp_id_token ? { idpIdToken: o.idp_id_token } : {}),
  };
}

/**
 * The effective `mcp.servers` as hub entries: the transport follows `type`, else `command`
 * (stdio) or `url` (streamable HTTP). An entry the project defined never gets a model
 * provider's key through `${VAR}` (`isProviderKeyVariable`: left empty, named in
 * `withheld`). Pure but for the spawner, which starts processes when called.
 */
export function serverEntries(
  servers: Readonly<Record<string, McpServer>>,
  context: ServerContext,
): ServerEntry[] {
  const spawn = doorSpawner(context.launch);
  const folder = context.launch.folder.path;
  return Object.entries(servers).map(([name, original]) => {
    const projectDefined = context.sources[name]?.projectDefined === true;
    const { server: s, withheld } = projectDefined
      ? withoutProviderKeys(original)
      : { server: original, withheld: [] };
    const type = s.type ?? (s.command !== undefined ? "stdio" : "http");
    const spec: McpServerSpec = {
      name,
      type,
      ...(s.command !== undefined ? { command: s.command } : {}),
      ...(s.args ? { args: s.args } : {}),
      ...(s.env ? { env: s.env } : {}),
      ...(s.url !== undefined ? { url: s.url } : {}),
      ...(s.headers ? { headers: s.headers } : {}),
      ...(s.timeout !== undefined ? { timeoutMs: s.timeout } : {}),
      ...(s.oauth !== undefined ? { oauth: oauthSettings(s.oauth) } : {}),
    };
    return {
      spec,
      enabled: s.enabled !== false,
      disabledTools: new Set(s.disabled_tools ?? []),
      key: JSON.stringify([original, type === "stdio" ? [folder, context.launch.env.vars] : null]),
      spawn,
      withheld,
    };
  });
}
