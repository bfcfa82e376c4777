import type { McpOAuth, McpServer } from "@z-engine/config";
import type { McpOAuthSettings, McpServerSpec } from "@z-engine/integrations";

/** One configured server as the hub runs it: the client's spec and the engine's own keys. */
export interface ServerEntry {
  readonly spec: McpServerSpec;
  readonly enabled: boolean;
  readonly disabledTools: ReadonlySet<string>;
  /** The entry's settings as text: a different key means the entry changed (restart it). */
  readonly key: string;
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
 * (stdio) or `url` (streamable HTTP). Pure.
 */
export function serverEntries(servers: Readonly<Record<string, McpServer>>): ServerEntry[] {
  return Object.entries(servers).map(([name, s]) => {
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
      key: JSON.stringify(s),
    };
  });
}
