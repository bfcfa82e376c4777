import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { contextReport } from "@z-engine/engine";
import {
  followAuthorization,
  OAUTH_MCP_SERVER,
  type RunningHttpServer,
  startHttpMcpServer,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// A session's MCP logout: the stored tokens (0600) are forgotten, the server restarts and
// needs a login again; the context report names the servers logged in.

let h: Harness | undefined;
let server: RunningHttpServer | undefined;
afterEach(async () => {
  await h?.dispose();
  await server?.stop();
  h = undefined;
  server = undefined;
});

describe("SessionMcp.logout", { timeout: 60_000 }, () => {
  it("forgets a logged-in server's tokens and shows it as needing login; the report names it until then", async () => {
    server = await startHttpMcpServer(OAUTH_MCP_SERVER, [], { PATH: process.env.PATH ?? "" });
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [],
      userSettings: `[mcp.servers.remote]\nurl = "${server.url}"\n`,
    });
    const session = h.session;
    const states = () =>
      h?.recorder
        .ofType("mcpServerUpdated")
        .filter((e) => e.server.name === "remote")
        .map((e) => e.server.state) ?? [];
    const needsLogin = () => states().filter((s) => s === "needsLogin").length;
    await h.recorder.waitFor("mcpServerUpdated", { server: { state: "needsLogin" } });
    expect((await contextReport(session)).mcpLogins).toEqual([]);

    await session.mcp.login("remote", async (url) => {
      expect(await followAuthorization(url)).toBe(200);
    });
    await h.recorder.waitFor("mcpServerUpdated", { server: { name: "remote", state: "ready" } });
    const dir = join(h.home, "data", "mcp-auth");
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file ?? "")).mode & 0o777).toBe(0o600);
    expect((await contextReport(session)).mcpLogins).toEqual(["remote"]);

    const from = h.recorder.envelopes.length;
    expect(await session.mcp.logout("remote")).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
    await h.recorder.waitFor(
      "mcpServerUpdated",
      { server: { name: "remote", state: "needsLogin" } },
      { fromIndex: from },
    );
    expect(needsLogin()).toBe(2);
    expect((await contextReport(session)).mcpLogins).toEqual([]);
    // An unknown server is refused in words.
    await expect(session.mcp.logout("nope")).rejects.toThrow(/nope/);
  });
});
