import {
  type AuthMethod,
  type ClientCapabilities,
  type InitializeRequest,
  type InitializeResponse,
  PROTOCOL_VERSION,
  RequestError,
} from "@agentclientprotocol/sdk";
import type { ProviderKeyStatus } from "@z-engine/engine";
import type { AcpAgentInfo, AcpAgentOptions } from "./options.js";

/** The auth method that checks the environment and auth.json again. */
export const API_KEY_METHOD = "zeng-api-key";
/** The terminal method: the client runs the agent with the login arguments. */
export const LOGIN_METHOD = "zeng-login";

const DEFAULT_INFO: AcpAgentInfo = { name: "z-engine", title: "Z Engine", version: "0.0.0" };

function authMethods(options: AcpAgentOptions, client: ClientCapabilities): AuthMethod[] {
  const methods: AuthMethod[] = [
    {
      id: API_KEY_METHOD,
      name: "API key",
      description:
        "Set ZENGINE_API_KEY (or the provider's own variable, such as ANTHROPIC_API_KEY) in the agent's environment, or store a key in the data folder's auth.json; authenticating checks for it again.",
    },
  ];
  if (client.auth?.terminal && options.terminalLoginArgs)
    methods.push({
      id: LOGIN_METHOD,
      type: "terminal",
      name: "Log in with an API key",
      description: "Asks for a key in a terminal and stores it in auth.json (mode 0600).",
      args: [...options.terminalLoginArgs],
    });
  return methods;
}

/**
 * The answer to `initialize`: the client's protocol version when this agent speaks it, else
 * the newest it does (ACP's negotiation); the agent's capabilities (loadSession, images and
 * embedded context in prompts, MCP over stdio, HTTP and SSE, session list, resume and close)
 * and its auth methods. Pure.
 */
export function initializeResponse(
  options: AcpAgentOptions,
  request: InitializeRequest,
): InitializeResponse {
  const client = request.clientCapabilities ?? {};
  return {
    // The only version this agent speaks: the client's when it asked for it, else the newest.
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    },
    authMethods: authMethods(options, client),
    agentInfo: { ...DEFAULT_INFO, ...options.agentInfo },
  };
}

/** The error a session request gets while no key is configured (ACP's `auth_required`). */
export function authRequired(status: ProviderKeyStatus): RequestError {
  const where = status.host ? ` for ${status.host}` : "";
  const sources = status.sources.length > 0 ? `: set ${status.sources.join(", or ")}` : "";
  const problem = status.problem ? ` (${status.problem})` : "";
  return RequestError.authRequired(
    { sources: status.sources, ...(status.host ? { host: status.host } : {}) },
    `No API key is configured${where}${sources}${problem}`,
  );
}
