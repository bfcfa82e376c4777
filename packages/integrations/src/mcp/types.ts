import type { ToolResultContent } from "@z-engine/protocol";

/** How a server is reached: a program over stdio, streamable HTTP, or the legacy SSE transport. */
export type McpTransportKind = "stdio" | "http" | "sse";

/**
 * One server as the engine hands it over (already merged from the settings layers). Values
 * may hold `${VAR}` / `${VAR:-default}`; they are expanded when the server starts.
 */
export interface McpServerSpec {
  readonly name: string;
  readonly type: McpTransportKind;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds allowed for the start (connect and first tool list) and for each call. */
  readonly timeoutMs?: number;
  /**
   * OAuth for a remote server (used when it answers 401); `false` never authorizes. Values
   * may hold `${VAR}`. Absent: discovery and dynamic registration, as the server offers.
   */
  readonly oauth?: McpOAuthSettings | false;
}

/** How a remote server's OAuth client is set up (a server entry's `oauth`). */
export interface McpOAuthSettings {
  /** A pre-registered client id (no dynamic registration then). */
  readonly clientId?: string;
  /** Its secret, for a confidential client (client_secret_basic or _post, as the server offers). */
  readonly clientSecret?: string;
  /** The loopback port the browser returns to (`http://localhost:PORT/callback`); default: any free port. */
  readonly callbackPort?: number;
  /** Scopes to ask for, space-separated (over the challenge's and the metadata's). */
  readonly scopes?: string;
  /** The authorization server's metadata document, skipping discovery (https). */
  readonly authServerMetadataUrl?: string;
  /** A client ID metadata document (https) used as the client id where the server supports it. */
  readonly clientMetadataUrl?: string;
  /**
   * `client_credentials` for machine-to-machine servers (no browser): secret or private-key
   * JWT; `jwt_bearer` for cross-app access (SEP-990): the IdP's ID token exchanged for an
   * ID-JAG, traded for an access token.
   */
  readonly grant?: "authorization_code" | "client_credentials" | "jwt_bearer";
  /** Cross-app access: the enterprise IdP's token endpoint, this client's id there, the user's ID token. */
  readonly idpTokenEndpoint?: string;
  readonly idpClientId?: string;
  readonly idpIdToken?: string;
  /** A PKCS#8 PEM key: the client authenticates with a signed JWT (private_key_jwt). */
  readonly privateKey?: string;
  /** The JWT's algorithm (default ES256). */
  readonly signingAlgorithm?: string;
}

/**
 * Where a server is in its life. `needsLogin`: a remote server wants an OAuth login that
 * only a person can give (`zeng mcp login`); nothing retries it until then.
 */
export type McpServerState =
  | "starting"
  | "ready"
  | "failed"
  | "disconnected"
  | "stopped"
  | "needsLogin";

/** One tool a server offers, as it listed it. */
export interface McpToolInfo {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of its input, as the server sent it. */
  readonly inputSchema: Record<string, unknown>;
}

/** One resource a server exposes. */
export interface McpResourceInfo {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** One resource template a server offers (RFC 6570 `uriTemplate`). */
export interface McpResourceTemplateInfo {
  readonly uriTemplate: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType?: string;
}

/** A server's `elicitation/create` in form mode: a message and the JSON Schema of the answer. */
export interface McpElicitation {
  readonly message: string;
  /** A flat object schema: string, number, integer, boolean and enum properties (MCP's subset). */
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/** The user's answer to an elicitation: accept (with content), decline, or cancel. */
export interface McpElicitationResult {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Record<string, string | number | boolean | string[]>;
}

/** One root the client offers servers (a folder as a `file://` URI). */
export interface McpRoot {
  readonly uri: string;
  readonly name?: string;
}

/**
 * What a client answers for its servers; each one present is advertised as a capability.
 * Absent, the request is refused with an error naming it (sampling stays refused unless a
 * host opts in with `onSample`). Hooks must not throw but to refuse.
 */
export interface McpClientHooks {
  readonly onElicit?: (
    request: McpElicitation,
    signal: AbortSignal,
  ) => Promise<McpElicitationResult>;
  readonly roots?: () => readonly McpRoot[];
  /** `sampling/createMessage` params in, a `CreateMessageResult` out (the host's model). */
  readonly onSample?: (
    params: Readonly<Record<string, unknown>>,
    signal: AbortSignal,
  ) => Promise<Record<string, unknown>>;
}

/** One prompt a server offers, with its arguments. */
export interface McpPromptInfo {
  readonly name: string;
  readonly description?: string;
  readonly arguments: readonly {
    readonly name: string;
    readonly description?: string;
    readonly required: boolean;
  }[];
}

/** A tool call's result, converted to content blocks the model reads. */
export interface McpCallResult {
  readonly content: readonly ToolResultContent[];
  readonly isError: boolean;
}

/** What a call may be told while it runs. */
export interface McpCallOptions {
  readonly signal: AbortSignal;
  /** A progress notification of the server, as one line of text. */
  readonly onProgress?: (text: string) => void;
  /**
   * The server has sent nothing about this call for `silentMs` (reported every
   * `WAIT_NOTICE_MS`); it gives up at `limitMs` of silence. Must not throw.
   */
  readonly onWaiting?: (silentMs: number, limitMs: number) => void;
}

/** An operational failure talking to a server; `code` says which kind. */
export class McpError extends Error {
  constructor(
    readonly code:
      | "notReady"
      | "connectionLost"
      | "timeout"
      | "cancelled"
      | "protocol"
      | "needsLogin"
      | "unauthorized",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "McpError";
  }
}
