import { randomBytes } from "node:crypto";
import type {
  AddClientAuthentication,
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { McpError, type McpOAuthSettings } from "../types.js";
import { idJagGrant, JWT_BEARER } from "./id-jag.js";
import type { McpTokenStore, StoredAuth } from "./store.js";

/** How a login sends the user's browser to the authorization page, and where it comes back. */
export interface InteractiveLogin {
  readonly redirectUrl: string;
  /** Told each new `state` before the browser is sent, so its return is expected. */
  prepare(state: string): void;
  /** Opens `url` in the user's browser (or a scripted user agent); resolves once it is sent there. */
  open(url: URL): Promise<void>;
}

/** What a provider is built from. */
export interface OAuthProviderOptions {
  readonly server: string;
  readonly url: string;
  readonly store: McpTokenStore;
  readonly settings: McpOAuthSettings;
  readonly clock: () => number;
  /** Present while a person logs in; absent in a session, where a login is only reported. */
  readonly login?: InteractiveLogin;
  /** For `private_key_jwt` (the SDK's helper, loaded with the SDK). */
  readonly jwtAuth?: (options: {
    issuer: string;
    subject: string;
    privateKey: string;
    alg: string;
  }) => AddClientAuthentication;
  /** Refreshes tokens with the SDK (`refreshAuthorization`), for a refresh before expiry. */
  readonly refresh?: (
    state: OAuthDiscoveryState,
    client: OAuthClientInformationMixed,
    refreshToken: string,
  ) => Promise<OAuthTokens>;
}

/** A refresh starts this long before the access token expires. */
export const REFRESH_BEFORE_MS = 60_000;

/** The `needsLogin` failure: the server wants a person's login, which a session cannot give. */
export function needsLogin(server: string, why: string): McpError {
  return new McpError(
    "needsLogin",
    `the MCP server "${server}" needs a login (${why}): run \`zeng mcp login ${server}\``,
  );
}

/**
 * The SDK's OAuthClientProvider over the token store, for one server at one URL. In a
 * session it never involves a person: stored tokens are used and refreshed (before they
 * expire, and on a 401), a client-credentials grant runs unattended, and anything that needs
 * the browser fails with {@link needsLogin} before any registration or redirect is made.
 * During a login (`login` given) it registers, sends the browser to the authorization page
 * and keeps the PKCE verifier in memory only. Tokens are written to the store only.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  private record: StoredAuth | undefined;
  private loaded: Promise<StoredAuth | undefined> | undefined;
  private verifier: string | undefined;
  private refreshing: Promise<OAuthTokens | undefined> | undefined;
  /** The `state` of the last authorization request (a login waits for it to come back). */
  pendingState: string | undefined;
  /** A scope the server asked for with `insufficient_scope`, until new tokens come. */
  private stepUpScope: string | undefined;
  readonly addClientAuthentication?: AddClientAuthentication;

  constructor(private readonly o: OAuthProviderOptions) {
    const { clientId, privateKey } = o.settings;
    if (clientId && privateKey && o.jwtAuth)
      this.addClientAuthentication = o.jwtAuth({
        issuer: clientId,
        subject: clientId,
        privateKey,
        alg: o.settings.signingAlgorithm ?? "ES256",
      });
  }

  /** A grant with no browser: client credentials, or cross-app access. */
  private get machine(): boolean {
    const grant = this.o.settings.grant;
    return grant === "client_credentials" || grant === "jwt_bearer";
  }

  private async current(): Promise<StoredAuth | undefined> {
    this.loaded ??= this.o.store.read(this.o.server, this.o.url);
    this.record ??= await this.loaded;
    return this.record;
  }

  private async save(change: (r: StoredAuth) => StoredAuth): Promise<void> {
    this.record = await this.o.store.update(this.o.server, this.o.url, change);
  }

  get redirectUrl(): string | undefined {
    if (this.machine) return undefined;
    // A session never redirects (redirectToAuthorization refuses), but the SDK reads the
    // interactive flow from a redirect URL being set.
    return this.o.login?.redirectUrl ?? "http://127.0.0.1/callback";
  }

  get clientMetadataUrl(): string | undefined {
    return this.o.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { clientSecret, privateKey, scopes } = this.o.settings;
    const auth = privateKey ? "private_key_jwt" : clientSecret ? "client_secret_basic" : "none";
    return {
      client_name: "Z Engine",
      redirect_uris: this.machine ? [] : [this.redirectUrl ?? ""],
      grant_types: this.machine
        ? [this.o.settings.grant === "jwt_bearer" ? JWT_BEARER : "client_credentials"]
        : ["authorization_code", "refresh_token"],
      response_types: this.machine ? [] : ["code"],
      token_endpoint_auth_method: auth,
      ...(scopes ? { scope: scopes } : {}),
    };
  }

  state(): string {
    this.pendingState = randomBytes(16).toString("base64url");
    this.o.login?.prepare(this.pendingState);
    return this.pendingState;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const stored = await this.current();
    const { clientId, clientSecret } = this.o.settings;
    if (clientId) {
      // Pre-registered: the entry's id and secret, bound to the issuer that first took them.
      const issuer = stored?.client?.client_id === clientId ? stored.client.issuer : undefined;
      return {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        ...(issuer ? { issuer } : {}),
      } as OAuthClientInformationMixed;
    }
    if (stored?.client) return stored.client;
    if (!this.o.login && !this.machine) throw needsLogin(this.o.server, "not logged in yet");
    return undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await this.save((r) => ({ ...r, client: info }));
  }

  /**
   * The server refused a token for lack of scope (`insufficient_scope`): a refresh keeps the
   * old scopes, so until new tokens come the refresh token is withheld and the SDK asks for
   * a new authorization (the browser in a login; `needsLogin` in a session).
   */
  stepUp(scope: string): void {
    this.stepUpScope = scope || "more";
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.current();
    const tokens = stored?.tokens;
    if (!tokens) return undefined;
    if (this.stepUpScope) {
      const { refresh_token: _withheld, ...access } = tokens;
      return access;
    }
    const soon =
      stored.expiresAt !== undefined && stored.expiresAt - this.o.clock() < REFRESH_BEFORE_MS;
    if (!soon || !tokens.refresh_token || !stored.discovery || !this.o.refresh) return tokens;
    this.refreshing ??= this.refreshNow(stored, tokens.refresh_token).finally(() => {
      this.refreshing = undefined;
    });
    return (await this.refreshing) ?? tokens;
  }

  /** A refresh before expiry; a failure leaves the old tokens (a 401 then runs the SDK's flow). */
  private async refreshNow(
    stored: StoredAuth,
    refreshToken: string,
  ): Promise<OAuthTokens | undefined> {
    const client = await this.clientInformation().catch(() => undefined);
    if (!client || !stored.discovery || !this.o.refresh) return undefined;
    try {
      const fresh = await this.o.refresh(stored.discovery, client, refreshToken);
      const issuer = stored.tokens?.issuer;
      await this.saveTokens({ ...fresh, ...(issuer ? { issuer } : {}) });
      return this.record?.tokens;
    } catch {
      return undefined;
    }
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.stepUpScope = undefined;
    const expiresAt =
      typeof tokens.expires_in === "number" ? this.o.clock() + tokens.expires_in * 1000 : undefined;
    await this.save((r) => {
      const { expiresAt: _old, ...rest } = r;
      return { ...rest, tokens, ...(expiresAt !== undefined ? { expiresAt } : {}) };
    });
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (!this.o.login) {
      const scope = url.searchParams.get("scope");
      throw needsLogin(this.o.server, scope ? `scope ${scope}` : "no valid token");
    }
    // Scopes the entry pins win over the challenge's and the metadata's; a step-up adds its own.
    const pinned = this.o.settings.scopes;
    if (pinned) {
      const wanted = new Set(pinned.split(" ").filter(Boolean));
      if (this.stepUpScope) for (const s of this.stepUpScope.split(" ")) if (s) wanted.add(s);
      url.searchParams.set("scope", [...wanted].join(" "));
      if (!wanted.has("offline_access")) url.searchParams.delete("prompt");
    }
    await this.o.login.open(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new McpError("unauthorized", "no login is under way");
    return this.verifier;
  }

  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    if (!this.machine) return undefined;
    // The SDK saved the discovery just before it asks for the grant.
    if (this.o.settings.grant === "jwt_bearer")
      return idJagGrant(this.o.settings, (await this.current())?.discovery, this.o.url);
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    const wanted = this.o.settings.scopes ?? scope;
    if (wanted) params.set("scope", wanted);
    return params;
  }

  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    if (scope === "verifier") {
      this.verifier = undefined;
      return;
    }
    await this.save((r) => {
      const { client, tokens, expiresAt, discovery, ...rest } = r;
      const keep = (part: "client" | "tokens" | "discovery") => scope !== "all" && scope !== part;
      return {
        ...rest,
        ...(keep("client") && client ? { client } : {}),
        ...(keep("tokens") && tokens ? { tokens } : {}),
        ...(keep("tokens") && expiresAt !== undefined ? { expiresAt } : {}),
        ...(keep("discovery") && discovery ? { discovery } : {}),
      };
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const stored = (await this.current())?.discovery;
    const override = this.o.settings.authServerMetadataUrl;
    if (stored || !override) return stored;
    // The entry names the authorization server's metadata: no discovery chain.
    const response = await fetch(override, {
      headers: { accept: "application/json" },
      redirect: "error",
    });
    if (!response.ok)
      throw new McpError(
        "unauthorized",
        `the authorization server metadata at ${override} answered HTTP ${response.status}`,
      );
    const metadata = (await response.json()) as OAuthDiscoveryState["authorizationServerMetadata"];
    const issuer =
      typeof metadata?.issuer === "string" ? metadata.issuer : new URL("/", override).href;
    return { authorizationServerUrl: issuer, authorizationServerMetadata: metadata };
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.save((r) => ({ ...r, discovery: state }));
  }
}
