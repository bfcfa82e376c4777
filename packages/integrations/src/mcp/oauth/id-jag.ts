import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { McpError, type McpOAuthSettings } from "../types.js";

/** RFC 7523's grant: an assertion (here the IdP's ID-JAG) for an access token. */
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * Cross-app access (SEP-990, enterprise-managed authorization): exchanges the user's ID token
 * from the enterprise IdP for an ID-JAG (RFC 8693 token exchange, audience the authorization
 * server, `resource` the MCP server), and returns the jwt-bearer grant that trades it for an
 * access token at the authorization server (the client authenticates there as usual).
 * Rejects with McpError (`unauthorized`) when the IdP refuses.
 */
export async function idJagGrant(
  settings: McpOAuthSettings,
  discovery: OAuthDiscoveryState | undefined,
  serverUrl: string,
): Promise<URLSearchParams> {
  const { idpTokenEndpoint, idpClientId, idpIdToken } = settings;
  if (!idpTokenEndpoint || !idpIdToken)
    throw new McpError(
      "unauthorized",
      "cross-app access needs `idp_token_endpoint` and `idp_id_token`",
    );
  const audience =
    discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
  if (!audience) throw new McpError("unauthorized", "the authorization server is not known yet");
  const body = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: String(audience),
    resource: discovery?.resourceMetadata?.resource ?? serverUrl,
    subject_token: idpIdToken,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    ...(idpClientId ? { client_id: idpClientId } : {}),
    ...(settings.scopes ? { scope: settings.scopes } : {}),
  });
  const response = await fetch(idpTokenEndpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body,
    redirect: "error",
  });
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || typeof answer.access_token !== "string")
    throw new McpError(
      "unauthorized",
      `the identity provider refused the token exchange (HTTP ${response.status}${typeof answer.error === "string" ? `: ${answer.error}` : ""})`,
    );
  return new URLSearchParams({ grant_type: JWT_BEARER, assertion: answer.access_token });
}
