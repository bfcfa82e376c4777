import {
  type AgentApp,
  type AgentContext,
  agent,
  type ClientCapabilities,
  RequestError,
} from "@agentclientprotocol/sdk";
import { z } from "zod";
import type { AcpSession } from "./acp-session.js";
import { API_KEY_METHOD, authRequired, initializeResponse, LOGIN_METHOD } from "./initialize.js";
import type { AcpAgentOptions } from "./options.js";
import { type OpenHow, openAcpSession } from "./session-open.js";
import { modeOf } from "./session-config.js";
import { listSessions } from "./session-list.js";

/** The connection's state: the client's capabilities and the sessions it opened. */
class Connection {
  capabilities: ClientCapabilities = {};
  client: AgentContext | undefined;
  readonly sessions = new Map<string, AcpSession>();

  constructor(readonly options: AcpAgentOptions) {}

  session(id: string): AcpSession {
    const found = this.sessions.get(id);
    if (!found) throw RequestError.sessionNotFound(id);
    return found;
  }

  async open(how: OpenHow, client: AgentContext): Promise<AcpSession> {
    if (how.kind !== "new") {
      const open = this.sessions.get(how.sessionId);
      if (open) {
        this.sessions.delete(how.sessionId);
        await open.handle.close();
      }
    }
    const session = await openAcpSession(
      {
        options: this.options,
        client: this.client ?? client,
        capabilities: this.capabilities,
        onError: (error) => this.report(error),
      },
      how,
    );
    this.sessions.set(session.id, session);
    // Its own updates go out once the response has: the client knows the session by then.
    setImmediate(() => session.startUpdates());
    return session;
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((s) => s.handle.close()));
  }

  /** A failure with no request to answer (a lost notification): reported on stderr, not fatal. */
  report(error: unknown): void {
    process.stderr.write(`zeng acp: ${(error as Error)?.message ?? String(error)}\n`);
  }
}

const SetModelParams = () => z.object({ sessionId: z.string(), modelId: z.string().min(1) });

/**
 * An ACP agent over an engine, as the protocol's own library builds one (`agent()` of
 * `@agentclientprotocol/sdk`): connect it to one client (`app.connect(stream)`, e.g. over
 * `ndJsonStream` on stdio). It answers `initialize`, `authenticate`, `session/new`, `load`,
 * `resume`, `list`, `close`, `prompt`, `cancel`, `set_mode`, `set_config_option` and the older
 * `session/set_model`. Each app holds one connection's state: make one per connection. Closing
 * the connection closes its sessions (the engine stays the host's).
 */
export function createAcpAgent(options: AcpAgentOptions): AgentApp {
  const c = new Connection(options);
  const engine = options.engine;
  const folder = options.folder ?? process.cwd();
  const app = agent({ name: "z-engine" });
  app.onConnect((connection) => {
    c.client = connection.client;
    void connection.closed.then(() => c.closeAll());
  });
  app.onRequest("initialize", ({ params }) => {
    c.capabilities = params.clientCapabilities ?? {};
    return initializeResponse(options, params);
  });
  app.onRequest("authenticate", async ({ params }) => {
    if (params.methodId !== API_KEY_METHOD && params.methodId !== LOGIN_METHOD)
      throw RequestError.invalidParams(undefined, `unknown auth method ${params.methodId}`);
    const status = await engine.providerKey(folder);
    if (status.needed && !status.found) throw authRequired(status);
    return {};
  });
  app.onRequest("session/new", async ({ params, client }) => {
    const session = await c.open(
      { kind: "new", cwd: params.cwd, mcpServers: params.mcpServers },
      client,
    );
    return { sessionId: session.id, ...session.state() };
  });
  app.onRequest("session/load", async ({ params, client }) => {
    const session = await c.open({ kind: "load", ...params }, client);
    return session.state();
  });
  app.onRequest("session/resume", async ({ params, client }) => {
    const how = { kind: "resume" as const, ...params, mcpServers: params.mcpServers ?? [] };
    return (await c.open(how, client)).state();
  });
  app.onRequest("session/list", ({ params }) => listSessions(engine, params));
  app.onRequest("session/close", async ({ params }) => {
    const session = c.session(params.sessionId);
    c.sessions.delete(params.sessionId);
    await session.handle.close();
    return {};
  });
  app.onRequest("session/prompt", ({ params }) => c.session(params.sessionId).prompt(params));
  app.onNotification("session/cancel", ({ params }) => {
    c.sessions.get(params.sessionId)?.cancel();
  });
  app.onRequest("session/set_mode", ({ params }) => {
    const mode = modeOf(params.modeId);
    if (!mode) throw RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
    c.session(params.sessionId).handle.send({ type: "setMode", mode });
    return {};
  });
  app.onRequest("session/set_config_option", ({ params }) => {
    const session = c.session(params.sessionId);
    return { configOptions: session.setOption(params.configId, params.value) };
  });
  // The model selector of ACP's earlier drafts (unstable `session/set_model`), for clients
  // that still send it; protocol version 1 selects models with `set_config_option`.
  app.onRequest("session/set_model", SetModelParams(), ({ params }) => {
    c.session(params.sessionId).setOption("model", params.modelId);
    return {};
  });
  return app;
}
