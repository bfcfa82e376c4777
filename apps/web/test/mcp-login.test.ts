import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  followAuthorization,
  OAUTH_MCP_SERVER,
  type RunningHttpServer,
  reply,
  startHttpMcpServer,
} from "@z-engine/testkit";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newSession, openTab, send, startFixture, sharedBrowser } from "./web-harness.js";

// MCP login and logout from the Context screen: a server that needs OAuth offers "Log in"; the page gets
// the authorization URL and opens it; once the browser brings the code back the server is
// ready and its tools reach the next request. Against testkit's OAuth-protected MCP server.

const { cleanup, page } = sharedBrowser();

async function oauthFixture(args: string[], script: Parameters<typeof startFixture>[0]["script"]) {
  const server: RunningHttpServer = await startHttpMcpServer(OAUTH_MCP_SERVER, args, {
    PATH: process.env.PATH ?? "",
  });
  cleanup.push(() => server.stop());
  const f = await startFixture({
    files: { "a.txt": "a\n" },
    script,
    settings: {
      permissions: { allow: ["mcp__remote"] },
      mcp: { servers: { remote: { url: server.url } } },
    },
  });
  cleanup.push(() => f.dispose());
  return f;
}

/** Replaces window.open so the test is the user agent: the page's opened URLs land in `window.opened`. */
async function captureOpens(p: Page): Promise<() => Promise<string[]>> {
  await p.evaluate(() => {
    const w = window as unknown as { opened: string[] };
    w.opened = [];
    window.open = (url?: string | URL) => {
      w.opened.push(String(url));
      return null;
    };
  });
  return () => p.evaluate(() => (window as unknown as { opened: string[] }).opened);
}

describe("MCP login on the Context screen", { timeout: 90_000 }, () => {
  it("logs in a server that needs it: the URL opens, the callback makes it ready, its tools reach the model", async () => {
    const f = await oauthFixture(
      [],
      [reply.toolCall("mcp__remote__whoami", {}), reply.text("you are a client")],
    );
    const p = await page();
    await newSession(p, f);
    await openTab(p, "Context");
    const row = p.getByTestId("mcp-servers").locator("li", { hasText: "remote" });
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("needsLogin");
    const opened = await captureOpens(p);

    await row.getByRole("button", { name: "Log in to remote" }).click();
    const link = row.getByRole("link", { name: "Open the login page" });
    await link.waitFor();
    const urls = await opened();
    expect(urls).toHaveLength(1);
    const url = urls[0] ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
    expect(await link.getAttribute("href")).toBe(url);
    // The scripted user agent follows the authorization to the loopback callback.
    expect(await followAuthorization(url)).toBe(200);

    await row.getByText("Logged in to remote (2 tools).").waitFor();
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    expect(await row.getByRole("button", { name: "Log in to remote" }).count()).toBe(0);

    await send(p, "who am I?");
    await p.getByTestId("turn-end").waitFor();
    const first = f.model.requests[0];
    expect(first?.tools.map((t) => t.name)).toContain("mcp__remote__whoami");
    expect(JSON.stringify(f.model.requests[1]?.messages)).toMatch(/client \S+ scopes tools/);
  });

  it("in the real page: the login page opens in a new window, which brings the code back", async () => {
    const f = await oauthFixture([], []);
    const p = await page();
    await newSession(p, f);
    await openTab(p, "Context");
    const row = p.getByTestId("mcp-servers").locator("li", { hasText: "remote" });
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("needsLogin");
    const popup = p.context().waitForEvent("page");
    await row.getByRole("button", { name: "Log in to remote" }).click();
    const loginWindow = await popup;
    // The authorization server redirects at once to the engine's loopback callback.
    await loginWindow.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
    await row.getByText("Logged in to remote (2 tools).").waitFor();
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
  });

  it("says in words when the login fails or the server is unknown", async () => {
    // No dynamic registration and no client id: the login cannot start.
    const f = await oauthFixture(["--no-dcr"], []);
    const p = await page();
    await newSession(p, f);
    await openTab(p, "Context");
    const row = p.getByTestId("mcp-servers").locator("li", { hasText: "remote" });
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("needsLogin");
    const opened = await captureOpens(p);
    await row.getByRole("button", { name: "Log in to remote" }).click();
    await row.getByRole("alert").filter({ hasText: "login to remote failed:" }).waitFor();
    expect(await opened()).toEqual([]);
    // The button is back for another try.
    await row.getByRole("button", { name: "Log in to remote" }).waitFor();

    const id = new URL(p.url()).searchParams.get("session") ?? "";
    const answer = await p.evaluate(async (sessionId) => {
      const token = new URL(location.href).searchParams.get("token") ?? "";
      const response = await fetch(`/api/sessions/${sessionId}/mcp/login`, {
        method: "POST",
        headers: { "x-zeng-token": token, "content-type": "application/json" },
        body: JSON.stringify({ server: "nope" }),
      });
      return { status: response.status, body: (await response.json()) as { error: string } };
    }, id);
    expect(answer).toEqual({
      status: 404,
      body: { error: "no MCP server nope in this session (servers: remote)" },
    });
  });

  it("logs out of a logged-in server: its stored tokens are removed and it needs a login again", async () => {
    const f = await oauthFixture([], []);
    const p = await page();
    await newSession(p, f);
    await openTab(p, "Context");
    const row = p.getByTestId("mcp-servers").locator("li", { hasText: "remote" });
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("needsLogin");
    // Nothing stored yet: no Log out.
    expect(await row.getByRole("button", { name: "Log out of remote" }).count()).toBe(0);
    const opened = await captureOpens(p);
    await row.getByRole("button", { name: "Log in to remote" }).click();
    await row.getByRole("link", { name: "Open the login page" }).waitFor();
    expect(await followAuthorization((await opened())[0] ?? "")).toBe(200);
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    const auth = join(f.dataDir, "mcp-auth");
    const stored = readdirSync(auth);
    expect(stored).toHaveLength(1);
    expect(statSync(join(auth, stored[0] ?? "")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(auth, stored[0] ?? ""), "utf8")).toContain('"access_token"');

    await row.getByRole("button", { name: "Log out of remote" }).click();
    await row.getByText("Logged out of remote.").waitFor();
    await expect.poll(() => row.getAttribute("data-state"), { timeout: 20_000 }).toBe("needsLogin");
    await row.getByRole("button", { name: "Log in to remote" }).waitFor();
    expect(await row.getByRole("button", { name: "Log out of remote" }).count()).toBe(0);
    // The tokens are gone (a restart may register a new client, but holds no token).
    const left = readdirSync(auth).map((n) => readFileSync(join(auth, n), "utf8"));
    expect(left.some((text) => text.includes("access_token"))).toBe(false);

    const id = new URL(p.url()).searchParams.get("session") ?? "";
    const answer = await p.evaluate(async (sessionId) => {
      const token = new URL(location.href).searchParams.get("token") ?? "";
      const response = await fetch(`/api/sessions/${sessionId}/mcp/logout`, {
        method: "POST",
        headers: { "x-zeng-token": token, "content-type": "application/json" },
        body: JSON.stringify({ server: "nope" }),
      });
      return { status: response.status, body: (await response.json()) as { error: string } };
    }, id);
    expect(answer).toEqual({
      status: 404,
      body: { error: "no MCP server nope in this session (servers: remote)" },
    });
  });
});
