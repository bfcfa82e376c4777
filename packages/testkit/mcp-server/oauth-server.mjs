#!/usr/bin/env node
// An OAuth-protected MCP server for tests, built from the SDK's own server-side pieces: its
// authorization server router (metadata, dynamic registration, authorize with PKCE, token,
// revocation) and its bearer-token middleware in front of a streamable HTTP MCP server with
// sessions. Run it as `node oauth-server.mjs [--port N] [--expires-in S] [--consent]
// [--client-id ID --client-secret SECRET --redirect-uri URI] [--no-dcr]`; it prints
// `listening <port>`.
// `--consent` makes the authorization page a form with an "Allow" button (for a real
// browser); without it the page redirects back at once, as a user who already agreed.
// The tool `admin` needs the scope `admin` (a 403 insufficient_scope asks for a step-up).
// With MCP_TEST_LOG set, one line per HTTP request (`<METHOD> <path> <status>`) and per
// grant (`grant authorization_code`, `grant refresh_token`) goes to that file.
import { appendFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import express from "express";
import { mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import {
  InvalidGrantError,
  InvalidTokenError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const log = (line) => {
  if (process.env.MCP_TEST_LOG) appendFileSync(process.env.MCP_TEST_LOG, `${line}\n`);
};
const expiresIn = Number(opt("--expires-in") ?? 3600);
const SCOPES = ["tools", "admin", "offline_access"];

class Clients {
  clients = new Map();
  static make() {
    const store = new Clients();
    // Without dynamic registration the metadata has no registration_endpoint.
    if (argv.includes("--no-dcr")) return { getClient: (id) => store.getClient(id) };
    return store;
  }
  constructor() {
    const id = opt("--client-id");
    if (id)
      this.clients.set(id, {
        client_id: id,
        client_secret: opt("--client-secret"),
        redirect_uris: [opt("--redirect-uri") ?? "http://localhost:0/callback"],
        token_endpoint_auth_method: opt("--client-secret") ? "client_secret_basic" : "none",
      });
  }
  async getClient(id) {
    return this.clients.get(id);
  }
  async registerClient(client) {
    this.clients.set(client.client_id, client);
    return client;
  }
}

/** The SDK's OAuthServerProvider, in memory, with refresh tokens and short expiries. */
class Provider {
  clientsStore = Clients.make();
  codes = new Map();
  tokens = new Map();
  refresh = new Map();
  pending = new Map();

  async authorize(client, params, res) {
    const code = randomUUID();
    this.codes.set(code, { client, params });
    const back = new URL(params.redirectUri);
    back.searchParams.set("code", code);
    if (params.state !== undefined) back.searchParams.set("state", params.state);
    if (!argv.includes("--consent")) return void res.redirect(back.href);
    this.pending.set(code, back.href);
    res
      .type("html")
      .send(
        `<!doctype html><title>Consent</title><h1>Allow Z Engine?</h1><p>Scopes: ${(params.scopes ?? []).join(" ")}</p>` +
          `<form method="post" action="/consent"><input type="hidden" name="code" value="${code}"><button id="allow">Allow</button></form>`,
      );
  }
  async challengeForAuthorizationCode(_client, code) {
    const data = this.codes.get(code);
    if (!data) throw new InvalidGrantError("unknown code");
    return data.params.codeChallenge;
  }
  issue(clientId, scopes, resource) {
    const token = randomUUID();
    const refresh = randomUUID();
    this.tokens.set(token, {
      clientId,
      scopes,
      resource,
      expiresAt: Date.now() / 1000 + expiresIn,
    });
    this.refresh.set(refresh, { clientId, scopes, resource });
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: expiresIn,
      scope: scopes.join(" "),
      refresh_token: refresh,
    };
  }
  async exchangeAuthorizationCode(client, code, _verifier, _redirect, resource) {
    const data = this.codes.get(code);
    if (!data || data.client.client_id !== client.client_id)
      throw new InvalidGrantError("bad code");
    this.codes.delete(code);
    log("grant authorization_code");
    return this.issue(
      client.client_id,
      data.params.scopes ?? ["tools"],
      resource?.href ?? data.params.resource?.href,
    );
  }
  async exchangeRefreshToken(client, refreshToken, scopes, resource) {
    const data = this.refresh.get(refreshToken);
    if (!data || data.clientId !== client.client_id)
      throw new InvalidGrantError("bad refresh token");
    this.refresh.delete(refreshToken);
    log("grant refresh_token");
    return this.issue(client.client_id, scopes ?? data.scopes, resource?.href ?? data.resource);
  }
  async verifyAccessToken(token) {
    const data = this.tokens.get(token);
    if (!data) throw new InvalidTokenError("unknown token");
    return {
      token,
      clientId: data.clientId,
      scopes: data.scopes,
      expiresAt: data.expiresAt,
      resource: data.resource ? new URL(data.resource) : undefined,
    };
  }
  async revokeToken(_client, request) {
    this.tokens.delete(request.token);
    this.refresh.delete(request.token);
  }
}

function mcpServer() {
  const server = new Server(
    { name: "z-oauth-server", version: "1.0.0" },
    { capabilities: { tools: {} }, instructions: "Use whoami to see who you are." },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: "whoami", description: "Says which client called.", inputSchema: { type: "object" } },
      { name: "admin", description: "Needs the admin scope.", inputSchema: { type: "object" } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => {
    const info = extra.authInfo;
    return {
      content: [
        { type: "text", text: `client ${info?.clientId} scopes ${info?.scopes.join(" ")}` },
      ],
    };
  });
  return server;
}

const app = express();
app.use((req, res, next) => {
  const path = new URL(req.originalUrl, "http://x").pathname;
  res.on("finish", () => log(`${req.method} ${path} ${res.statusCode}`));
  next();
});
const provider = new Provider();
let base = "";
const sessions = new Map();

app.post("/consent", express.urlencoded({ extended: false }), (req, res) => {
  const back = provider.pending.get(req.body.code);
  if (!back) return void res.status(400).send("no such consent");
  provider.pending.delete(req.body.code);
  res.redirect(back);
});

const start = (port) =>
  new Promise((resolve) => {
    const http = app.listen(port, "127.0.0.1", () => resolve(http));
  });
const http = await start(Number(opt("--port") ?? 0));
const port = http.address().port;
base = `http://127.0.0.1:${port}`;
const resource = new URL(`${base}/mcp`);
app.use(
  mcpAuthRouter({
    provider,
    issuerUrl: new URL(base),
    resourceServerUrl: resource,
    scopesSupported: SCOPES,
  }),
);
const bearer = requireBearerAuth({
  verifier: provider,
  resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
  expectedResource: resource,
});
// The step-up: a call of `admin` without the scope gets a 403 naming the scope it needs.
app.post("/mcp", express.json(), bearer, async (req, res, next) => {
  const admin = req.body?.method === "tools/call" && req.body?.params?.name === "admin";
  if (admin && !req.auth.scopes.includes("admin")) {
    res.set(
      "WWW-Authenticate",
      `Bearer error="insufficient_scope", scope="tools admin", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    return void res.status(403).json({ error: "insufficient_scope" });
  }
  next();
});
app.all("/mcp", express.json(), bearer, async (req, res) => {
  const id = req.headers["mcp-session-id"];
  let transport = id ? sessions.get(id) : undefined;
  if (req.method === "DELETE") log(`session ended ${id}`);
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
    await mcpServer().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
process.stdout.write(`listening ${port}\n`);
