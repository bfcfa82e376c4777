import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

let h: Harness | undefined;
let server: Server | undefined;
afterEach(async () => {
  await h?.dispose();
  if (server) await new Promise((resolve) => server?.close(resolve));
  h = undefined;
  server = undefined;
});

const toolNames = (x: Harness, i: number) => (x.model.requests[i]?.tools ?? []).map((t) => t.name);

describe("[web] settings", () => {
  it("web.enabled = false keeps WebFetch and WebSearch from the model", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      userSettings: "[web]\nenabled = false\n",
      script: [reply.text("ok")],
    });
    await h.session.run("hello");
    const names = toolNames(h, 0);
    expect(names).toContain("Read");
    expect(names).not.toContain("WebFetch");
    expect(names).not.toContain("WebSearch");
  }, 30_000);

  it("offers them by default, and WebSearch sends web.search_headers", async () => {
    const seen: IncomingHttpHeaders[] = [];
    server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ results: [{ title: "Hit", url: "https://a.example/", content: "x" }] }),
      );
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    h = await harness({
      files: { "README.md": "# x\n" },
      userSettings: [
        "[web]",
        `search_url = "http://127.0.0.1:${port}/search"`,
        'search_headers = { "x-search-key" = "s3cret-search" }',
        "",
      ].join("\n"),
      overrides: { mode: "bypass" },
      script: [reply.toolCall("WebSearch", { query: "z engine" }), reply.text("ok")],
    });
    await h.session.run("search");
    expect(toolNames(h, 0)).toEqual(expect.arrayContaining(["WebFetch", "WebSearch"]));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.["x-search-key"]).toBe("s3cret-search");
    expect(JSON.stringify(h.model.requests[1]?.messages.at(-1))).toContain("Hit");
  }, 30_000);
});
