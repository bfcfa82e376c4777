import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ChildSpawner } from "../child-spawner.js";
import type { ExpandEnv } from "./expand.js";
import type { McpLoginOptions } from "./oauth/login-session.js";
import { interactive, MAX_AUTHORIZATIONS } from "./oauth/login-session.js";
import { type InteractiveLogin, StoredOAuthProvider } from "./oauth/provider.js";
import type { McpTokenStore } from "./oauth/store.js";
import type { OpenedTransport } from "./opened-transport.js";
import { expandRemote, hasOwnAuthorization, remoteTransport } from "./remote-transport.js";
import type { loadSdk } from "./sdk.js";
import { openTransport } from "./transport.js";
import { type McpClientHooks, McpError, type McpServerSpec } from "./types.js";

/** OAuth for a connection: where tokens are kept, and a login when a person is at hand. */
export interface McpAuthOptions {
  readonly store: McpTokenStore;
  readonly login?: McpLoginOptions;
}

/** What opening a server's client takes. */
export interface OpenContext {
  readonly spec: McpServerSpec;
  readonly env: ExpandEnv;
  /** Starts a stdio server (its folder and scrubbed environment are the spawner's). */
  readonly spawn: ChildSpawner;
  readonly hooks: McpClientHooks;
  readonly auth: McpAuthOptions | undefined;
  readonly clock: () => number;
  /**
   * Authorization pages opened since the last request that succeeded: past
   * MAX_AUTHORIZATIONS, no more are opened (a server that never accepts a token must not
   * send the browser round forever).
   */
  readonly authorizations: { count: number };
}

/** A client and its transport, not yet connected, and the OAuth provider when there is one. */
export interface OpenedClient {
  readonly client: Client;
  readonly opened: OpenedTransport;
  readonly provider: StoredOAuthProvider | undefined;
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** The login's `open`, refusing once MAX_AUTHORIZATIONS pages were opened in a row. */
function bounded(login: InteractiveLogin, counter: { count: number }): InteractiveLogin {
  return {
    ...login,
    open: async (url) => {
      if (++counter.count > MAX_AUTHORIZATIONS)
        throw new McpError(
          "unauthorized",
          `gave up after ${MAX_AUTHORIZATIONS} authorizations in a row: the server keeps refusing the tokens it gets`,
        );
      await login.open(url);
    },
  };
}

/**
 * The OAuth provider of a remote spec: none for stdio, for `oauth = false`, for an entry that
 * sends its own `Authorization` header, or when the engine keeps no token store.
 */
function providerFor(
  ctx: OpenContext,
  sdk: Sdk,
  remote: ReturnType<typeof expandRemote>,
): StoredOAuthProvider | undefined {
  if (!ctx.auth || remote.oauth === false || hasOwnAuthorization(remote.headers)) return undefined;
  return new StoredOAuthProvider({
    server: ctx.spec.name,
    url: remote.url.href,
    store: ctx.auth.store,
    settings: remote.oauth,
    clock: ctx.clock,
    ...(ctx.auth.login ? { login: bounded(interactive(ctx.auth.login), ctx.authorizations) } : {}),
    jwtAuth: (o) => sdk.createPrivateKeyJwtAuth(o),
    refresh: (state, client, refreshToken) =>
      sdk.refreshAuthorization(state.authorizationServerUrl, {
        metadata: state.authorizationServerMetadata,
        clientInformation: client,
        refreshToken,
        ...(state.resourceMetadata?.resource
          ? { resource: new URL(state.resourceMetadata.resource) }
          : {}),
      }),
  });
}

/**
 * Builds a server's client and transport: stdio (`openTransport`) or remote (with OAuth when
 * it applies). Rejects with McpConfigError for an unset variable or a bad URL.
 */
export async function openClient(ctx: OpenContext, sdk: Sdk): Promise<OpenedClient> {
  if (ctx.spec.type === "stdio") {
    const opened = await openTransport(ctx.spec, ctx.env, ctx.spawn);
    return { client: sdk.newClient(ctx.hooks), opened, provider: undefined };
  }
  const remote = expandRemote(ctx.spec, ctx.env);
  const provider = providerFor(ctx, sdk, remote);
  const opened = await remoteTransport(ctx.spec, remote, provider);
  return { client: sdk.newClient(ctx.hooks), opened, provider };
}
