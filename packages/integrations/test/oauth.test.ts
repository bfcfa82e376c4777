import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import {
  followAuthorization,
  OAUTH_MCP_SERVER,
  type RunningHttpServer,
  startHttpMcpServer,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  hasMcpLogin,
  loginMcpServer,
  logoutMcpServer,
  McpConnection,
  type McpServerSpec,
  McpTokenStore,
  startLoopback,
} from "../src/index.js";
import { baseEnv, lines, tempDir, textOf } from "./helpers.js";

const servers: RunningHttpServer[] = [];
const conns: McpConnection[] = [];
afterEach(async () => {
  await Promise.all(conns.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});
const signal = () => new AbortController().signal;

async function oauthServer(args: string[] = []) {
  const log = join(tempDir(), "log");
  const server = await startHttpMcpServer(OAUTH_MCP_SERVER, args, baseEnv({ MCP_TEST_LOG: log }));
  servers.push(server);
  return { ...server, log: () => lines(log) };
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  return port;
}

const spec = (url: string, extra: Partial<McpServerSpec> = {}): McpServerSpec => ({
  name: "remote",
  type: "http",
  url,
  ...extra,
});

function session(s: McpServerSpec, store: McpTokenStore, clock?: () => number) {
  const c = new McpConnection({
    spec: s,
    env: baseEnv(),
    cwd: tempDir(),
    auth: { store },
    ...(clock ? { clock } : {}),
  });
  conns.push(c);
  return c;
}

/** A login whose browser is the scripted user agent; records the pages it was sent to. */
async function login(s: McpServerSpec, store: McpTokenStore) {
  const pages: URL[] = [];
  const result = await loginMcpServer({
    spec: s,
    env: baseEnv(),
    store,
    open: async (url) => {
      pages.push(url);
      await followAuthorization(url);
    },
    timeoutMs: 10_000,
  });
  return { result, pages };
}

describe("OAuth for remote MCP servers (the SDK's authorization server on the other side)", {
  timeout: 40_000,
}, () => {
  it("a session never opens a browser: a server that wants a login is needsLogin, with what to run", async () => {
    const server = await oauthServer();
    const c = session(spec(server.url), new McpTokenStore(tempDir()));
    await c.start();
    expect(c.state).toBe("needsLogin");
    expect(c.error).toContain("run `zeng mcp login remote`");
    // Discovery ran, but nothing was registered and no one was sent anywhere.
    expect(server.log().some((l) => l.startsWith("POST /register"))).toBe(false);
  });

  it("logs in with discovery, dynamic registration and PKCE, keeps the tokens 0600, and a session uses them", async () => {
    const server = await oauthServer();
    const dir = tempDir();
    const store = new McpTokenStore(join(dir, "mcp-auth"));
    expect(await hasMcpLogin(spec(server.url), baseEnv(), store)).toBe(false);
    const { result, pages } = await login(spec(server.url), store);
    expect(await hasMcpLogin(spec(server.url), baseEnv(), store)).toBe(true);
    expect(result).toEqual({ tools: 2, authorizations: 1 });
    const page = pages[0] as URL;
    expect(page.searchParams.get("code_challenge_method")).toBe("S256");
    expect(page.searchParams.get("resource")).toBe(server.url);
    expect(page.searchParams.get("scope")).toBe("tools admin offline_access");
    expect(page.searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(server.log()).toContain("POST /register 201");
    expect(server.log()).toContain("GET /.well-known/oauth-protected-resource/mcp 200");
    const files = readdirSync(join(dir, "mcp-auth"));
    expect(files).toHaveLength(1);
    expect(statSync(join(dir, "mcp-auth")).mode & 0o777).toBe(0o700);
    const file = join(dir, "mcp-auth", files[0] as string);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, "utf8"));
    expect(stored).toMatchObject({ v: 2, server: "remote", url: server.url });
    const c = session(spec(server.url), store);
    await c.start();
    expect(c.state).toBe("ready");
    expect(c.instructions).toBe("Use whoami to see who you are.");
    expect(textOf(await c.callTool("whoami", {}, { signal: signal() }))).toMatch(
      /^client \S+ scopes tools admin/,
    );
    // One 401 at login; the session sent its stored token at once.
    expect(server.log().filter((l) => l === "POST /mcp 401")).toHaveLength(1);
    expect(await logoutMcpServer(spec(server.url), baseEnv(), store)).toBe(true);
    expect(readdirSync(join(dir, "mcp-auth"))).toEqual([]);
    expect(await hasMcpLogin(spec(server.url), baseEnv(), store)).toBe(false);
    expect(
      await hasMcpLogin({ name: "local", type: "stdio", command: "x" }, baseEnv(), store),
    ).toBe(false);
  });

  it("refreshes a token before it expires, and closing sends the DELETE that ends the session", async () => {
    const server = await oauthServer(["--expires-in", "30"]);
    const store = new McpTokenStore(tempDir());
    await login(spec(server.url), store);
    const c = session(spec(server.url), store);
    await c.start();
    expect(c.state).toBe("ready");
    const log = server.log();
    const refreshed = log.indexOf("grant refresh_token");
    expect(refreshed).toBeGreaterThan(0);
    // Refreshed before the request went out: no 401 after the login's one.
    expect(log.filter((l) => l === "POST /mcp 401")).toHaveLength(1);
    await c.close();
    expect(server.log().some((l) => l.startsWith("session ended "))).toBe(true);
    expect(server.log()).toContain("DELETE /mcp 200");
  });

  it("a token is only sent to the URL it was issued for, and a server that forgot it asks for a login", async () => {
    const first = await oauthServer();
    const store = new McpTokenStore(tempDir());
    await login(spec(first.url), store);
    const other = await oauthServer();
    // Same server name, another URL: nothing stored for it, so no token goes there.
    const c = session(spec(other.url), store);
    await c.start();
    expect(c.state).toBe("needsLogin");
    expect(other.log().filter((l) => l.startsWith("POST /token"))).toEqual([]);
    // The first server restarts and forgets every token: the refresh is refused, a login is needed.
    await first.stop();
    const again = await oauthServer(["--port", String(first.port)]);
    const d = session(spec(again.url), store);
    await d.start();
    expect(d.state).toBe("needsLogin");
  });

  it("step-up: a scope the token lacks sends a login through the browser again; a session reports it", async () => {
    const server = await oauthServer();
    const store = new McpTokenStore(tempDir());
    // Ask for `tools` only, so that `admin` needs a step-up.
    const narrow = spec(server.url, { oauth: { scopes: "tools" } });
    await login(narrow, store);
    const c = session(narrow, store);
    await c.start();
    const failure = await c.callTool("admin", {}, { signal: signal() }).catch((e: Error) => e);
    expect((failure as Error).message).toMatch(/needs a login \(scope tools admin\)/);
    expect(c.state).toBe("needsLogin");
    // With a person at hand the same call sends the browser again, for the wider scope.
    const loopback = await startLoopback();
    const pages: URL[] = [];
    const interactive = new McpConnection({
      spec: narrow,
      env: baseEnv(),
      cwd: tempDir(),
      auth: {
        store,
        login: {
          loopback,
          open: async (url) => {
            pages.push(url);
            await followAuthorization(url);
          },
          timeoutMs: 10_000,
          signal: signal(),
        },
      },
    });
    conns.push(interactive);
    await interactive.start();
    expect(pages).toEqual([]);
    expect(textOf(await interactive.callTool("admin", {}, { signal: signal() }))).toMatch(
      /scopes tools admin/,
    );
    expect(pages.map((p) => p.searchParams.get("scope"))).toEqual(["tools admin"]);
    await loopback.close();
  });

  it("a pre-registered client id and secret log in without registration, on the fixed callback port", async () => {
    const port = await freePort();
    const server = await oauthServer([
      "--no-dcr",
      "--client-id",
      "zeng",
      "--client-secret",
      "s3cret",
      "--redirect-uri",
      `http://localhost:${port}/callback`,
    ]);
    const store = new McpTokenStore(tempDir());
    const s = spec(server.url, {
      oauth: { clientId: "zeng", clientSecret: "s3cret", callbackPort: port },
    });
    const { result } = await login(s, store);
    expect(result.tools).toBe(2);
    expect(server.log().some((l) => l.startsWith("POST /register"))).toBe(false);
    const c = session(s, store);
    await c.start();
    expect(textOf(await c.callTool("whoami", {}, { signal: signal() }))).toMatch(/^client zeng /);
  });

  it("a 401 with an empty body says HTTP 401 and what to do, not 'Error POSTing to endpoint: '", async () => {
    const http = createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      const withHeader = session(
        spec(url, { headers: { Authorization: "Bearer nope" } }),
        new McpTokenStore(tempDir()),
      );
      await withHeader.start();
      expect(withHeader.state).toBe("failed");
      expect(withHeader.error).toBe(
        "the server answered HTTP 401 Unauthorized (check the token in the entry's `headers`)",
      );
      const noAuth = new McpConnection({ spec: spec(url), env: baseEnv(), cwd: tempDir() });
      conns.push(noAuth);
      await noAuth.start();
      expect(noAuth.error).toBe(
        "the server answered HTTP 401 Unauthorized (log in with `zeng mcp login remote`, or put a token in the entry's `headers`)",
      );
    } finally {
      http.close();
    }
  });
});
