import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  OAUTH_MCP_SERVER,
  type RunningHttpServer,
  reply,
  startHttpMcpServer,
} from "@z-engine/testkit";
import { chromium } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "./cli.test.helpers.js";

const FIXTURES = join(fileURLToPath(new URL(".", import.meta.url)), "fixtures");
const q = JSON.stringify;

let w: World | undefined;
let server: RunningHttpServer | undefined;
afterEach(async () => {
  await w?.dispose();
  await server?.stop();
  w = undefined;
  server = undefined;
});

async function remoteWorld(args: string[] = []) {
  server = await startHttpMcpServer(OAUTH_MCP_SERVER, args, { PATH: process.env.PATH ?? "" });
  w = await world({
    format: "anthropic",
    userSettings: `[permissions]\nallow = ["mcp__remote"]\n\n[mcp.servers.remote]\nurl = ${q(server.url)}\n`,
  });
  return { w, server };
}

/** Every file under the data folder's mcp-auth, read as text. */
function storedTokens(home: string): string[] {
  const dir = join(home, "data", "mcp-auth");
  return readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8"));
}

describe("zeng mcp login|logout (OAuth in the user's browser)", { timeout: 90_000 }, () => {
  it("logs in through the browser (a scripted user agent), -p then uses the token, logout forgets it", async () => {
    const { w } = await remoteWorld();
    const browserLog = join(w.home, "browser.log");
    const browser = {
      BROWSER: `${process.execPath} ${join(FIXTURES, "scripted-browser.mjs")}`,
      ZENG_TEST_BROWSER_LOG: browserLog,
    };
    // Headless before a login: a notice says what to run, no browser opens.
    w.provider.push(main(reply.text("no tools")));
    const before = await w.run(["-p", "hi"], browser);
    expect(before.code).toBe(0);
    expect(before.stderr).toContain("needs login: remote (run `zeng mcp login remote`)");
    expect(await readFile(browserLog, "utf8").catch(() => "")).toBe("");

    const login = await w.run(["mcp", "login", "remote"], browser);
    expect(login.stderr).toMatch(
      /^Log in to remote in your browser: http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    expect(login.stdout).toBe("Logged in to remote (2 tools).\n");
    expect(login.code).toBe(0);
    expect(await readFile(browserLog, "utf8")).toMatch(
      /^open http:\/\/127\.0\.0\.1:\d+\/authorize\?.*\ncallback 200\n$/s,
    );

    w.provider.push(main(reply.toolCall("mcp__remote__whoami", {})), main(reply.text("done")));
    const used = await w.run(["-p", "who am I?", "--output-format", "json"]);
    expect(used.code).toBe(0);
    const sessionId = (JSON.parse(used.stdout) as { sessionId: string }).sessionId;
    const token = (
      JSON.parse(storedTokens(w.home)[0] ?? "{}") as { tokens: { access_token: string } }
    ).tokens.access_token;
    expect(token.length).toBeGreaterThan(10);
    // The result reached the model; the token did not, nor the log.
    const requests = JSON.stringify(w.provider.requests.map((r) => r.body));
    expect(requests).toMatch(/client \S+ scopes tools/);
    expect(requests).not.toContain(token);
    expect(JSON.stringify(await w.log(sessionId))).not.toContain(token);

    const logout = await w.run(["mcp", "logout", "remote"]);
    expect(logout.stdout).toBe("Logged out of remote.\n");
    expect(readdirSync(join(w.home, "data", "mcp-auth"))).toEqual([]);
  });

  it("an untrusted project's server never triggers a login", async () => {
    server = await startHttpMcpServer(OAUTH_MCP_SERVER, [], { PATH: process.env.PATH ?? "" });
    w = await world({ format: "anthropic" });
    await writeFile(
      w.repo.path(".mcp.json"),
      q({ mcpServers: { proj: { type: "http", url: server.url } } }),
    );
    const run = await w.run(["mcp", "login", "proj"], { BROWSER: "/bin/false" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `"proj" is a server of the project ${w.repo.root}, which is not trusted`,
    );
    expect(run.stderr).not.toContain("Log in to");
  });

  it("opens the consent page in a real browser (Chromium), which brings the code back", async () => {
    const { w } = await remoteWorld(["--consent"]);
    const profile = await mkdtemp(join(tmpdir(), "zeng-chromium-"));
    const child = w.spawn(["mcp", "login", "remote"], {
      BROWSER: `sh ${join(FIXTURES, "chromium-browser.sh")}`,
      ZENG_TEST_CHROMIUM_PROFILE: profile,
    });
    const port = await devToolsPort(profile);
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    try {
      const page = await firstPage(browser);
      await page.waitForSelector("#allow");
      expect(await page.textContent("h1")).toBe("Allow Z Engine?");
      await page.click("#allow");
      await page.waitForURL(/\/callback\?/);
      expect(await page.textContent("h1")).toBe("Logged in");
      const run = await child.done;
      expect(run.stdout).toBe("Logged in to remote (2 tools).\n");
      expect(run.code).toBe(0);
    } finally {
      const cdp = await browser.newBrowserCDPSession();
      await cdp.send("Browser.close").catch(() => {});
    }
  });
});

/** The DevTools port Chromium writes to its profile once it listens. */
async function devToolsPort(profile: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const text = await readFile(join(profile, "DevToolsActivePort"), "utf8").catch(() => "");
    const port = Number(text.split("\n")[0]);
    if (port > 0) return port;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("Chromium did not start");
}

/** The page Chromium opened with the URL it was given. */
async function firstPage(browser: Awaited<ReturnType<typeof chromium.connectOverCDP>>) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const page = browser
      .contexts()
      .flatMap((c) => c.pages())
      .find((p) => p.url().includes("/authorize"));
    if (page) return page;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("no page with the authorization URL");
}
