import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SideModelPort } from "../ports.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { webFetchTool } from "./web-fetch.js";
import { webSearchTool } from "./web-search.js";

let server: Server;
let base: string;
const searches: string[] = [];
const searchHeaders: Array<Record<string, string | string[] | undefined>> = [];

const PAGE =
  '<html><head><title>T</title><style>.x{}</style><script>alert(1)</script></head><body><h1>Release notes</h1><p>Version <b>2.0</b> adds <a href="/more">things</a>.</p><ul><li>one</li></ul></body></html>';

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/page") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    } else if (url.pathname === "/moved") {
      res.writeHead(301, { location: "/page" });
      res.end();
    } else if (url.pathname === "/away") {
      res.writeHead(302, { location: "https://elsewhere.example/x" });
      res.end();
    } else if (url.pathname === "/huge") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("y".repeat(200_000));
    } else if (url.pathname === "/image") {
      res.writeHead(200, { "content-type": "image/png" });
      res.end(Buffer.from([1, 2, 3]));
    } else if (url.pathname === "/search") {
      searches.push(url.search);
      searchHeaders.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          results: [
            { title: "Docs", url: "https://docs.example.org/a", content: "The docs " },
            { title: "Blog", url: "https://blog.other.net/b", content: "A post" },
          ],
        }),
      );
    } else if (url.pathname === "/stalled") {
      // Headers never come: only the web timeout ends the request.
    } else if (url.pathname === "/bad-search") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>");
    } else {
      res.writeHead(404);
      res.end("nope");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("WebFetch", () => {
  it("ends a stalled request at the web timeout, garbage collections meanwhile", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const collecting = setInterval(gc, 10);
    try {
      const ctx = testCtx({ root: "/tmp", web: { timeoutMs: 300 } });
      const out = runTool(webFetchTool, { url: `${base}/stalled`, prompt: "x" }, ctx);
      // AbortSignal.timeout inside AbortSignal.any was collected here and never fired.
      const stalled = new Promise<"stalled">((r) => setTimeout(() => r("stalled"), 5_000).unref());
      const first = await Promise.race([out, stalled]);
      expect(first).not.toBe("stalled");
      if (first !== "stalled") expect(first.isError).toBe(true);
    } finally {
      clearInterval(collecting);
    }
  });

  it("converts HTML to markdown and names the domain as its action", async () => {
    const ctx = testCtx({ root: "/tmp" });
    const out = await runTool(webFetchTool, { url: `${base}/page`, prompt: "what is new?" }, ctx);
    expect(out.isError).toBe(false);
    const text = textOf(out);
    expect(text).toContain("# Release notes");
    expect(text).toContain("Version **2.0** adds [things](/more).");
    expect(text).not.toContain("alert(1)");
    expect(await webFetchTool.action({ url: `${base}/page`, prompt: "x" }, ctx)).toEqual([
      { kind: "network", url: `${base}/page`, domain: "127.0.0.1" },
    ]);
    const upgraded = await webFetchTool.action({ url: "http://example.com/a", prompt: "x" }, ctx);
    expect(upgraded).toEqual([
      { kind: "network", url: "https://example.com/a", domain: "example.com" },
    ]);
  });

  it("answers the prompt through the side model when there is one", async () => {
    const seen: string[] = [];
    const sideModel: SideModelPort = {
      complete: async (prompt, content) => {
        seen.push(prompt, content);
        return "Version 2.0 adds things.";
      },
    };
    const out = await runTool(
      webFetchTool,
      { url: `${base}/moved`, prompt: "what is new?" },
      testCtx({ root: "/tmp", ports: { sideModel } }),
    );
    expect(textOf(out)).toBe(`From ${base}/page:\n\nVersion 2.0 adds things.`);
    expect(seen[0]).toBe("what is new?");
    expect(seen[1]).toContain("# Release notes");
  });

  it("reports a redirect to another host instead of following it", async () => {
    const out = await runTool(
      webFetchTool,
      { url: `${base}/away`, prompt: "x" },
      testCtx({ root: "/tmp" }),
    );
    expect(textOf(out)).toMatch(/redirects to another host: https:\/\/elsewhere.example\/x/);
  });

  it("cuts large pages, refuses non-text and reports HTTP errors and bad URLs", async () => {
    const ctx = testCtx({ root: "/tmp", web: { maxBytes: 50_000, maxMarkdownChars: 1000 } });
    const huge = textOf(await runTool(webFetchTool, { url: `${base}/huge`, prompt: "x" }, ctx));
    expect(huge).toMatch(/y{1000}\n\n\[The page was cut to fit.\]$/);
    expect(textOf(await runTool(webFetchTool, { url: `${base}/image`, prompt: "x" }, ctx))).toMatch(
      /image\/png, not a text page/,
    );
    expect(
      textOf(await runTool(webFetchTool, { url: `${base}/missing`, prompt: "x" }, ctx)),
    ).toMatch(/HTTP 404/);
    expect(textOf(await runTool(webFetchTool, { url: "not a url", prompt: "x" }, ctx))).toMatch(
      /url/,
    );
    expect(
      textOf(await runTool(webFetchTool, { url: "ftp://example.com/x", prompt: "x" }, ctx)),
    ).toMatch(/Only http and https/);
    const closed = await runTool(webFetchTool, { url: "http://127.0.0.1:1/x", prompt: "x" }, ctx);
    expect(closed.isError).toBe(true);
  });
});

describe("WebSearch", () => {
  it("queries the configured endpoint and filters domains", async () => {
    const ctx = testCtx({ root: "/tmp", web: { searchUrl: `${base}/search` } });
    const out = await runTool(
      webSearchTool,
      { query: "z engine", blocked_domains: ["other.net"] },
      ctx,
    );
    expect(textOf(out)).toBe(
      'Results for "z engine":\n\n1. Docs\n   https://docs.example.org/a\n   The docs',
    );
    expect(searches.at(-1)).toBe("?q=z+engine&format=json");
    const allowed = await runTool(
      webSearchTool,
      { query: "z engine", allowed_domains: ["nothing.org"] },
      ctx,
    );
    expect(textOf(allowed)).toBe('No results for "z engine".');
    expect(await webSearchTool.action({ query: "q q" }, ctx)).toMatchObject([
      { kind: "network", domain: "127.0.0.1" },
    ]);
  });

  it("sends the configured search headers with each query", async () => {
    const ctx = testCtx({
      root: "/tmp",
      web: { searchUrl: `${base}/search`, searchHeaders: { "x-api-key": "search-key" } },
    });
    await runTool(webSearchTool, { query: "headers" }, ctx);
    expect(searchHeaders.at(-1)?.["x-api-key"]).toBe("search-key");
    expect(searchHeaders.at(-1)?.accept).toBe("application/json");
  });

  it("gives a clear error with no endpoint or a bad answer", async () => {
    const none = await runTool(webSearchTool, { query: "anything" }, testCtx({ root: "/tmp" }));
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/Web search is not configured/);
    const bad = await runTool(
      webSearchTool,
      { query: "anything" },
      testCtx({ root: "/tmp", web: { searchUrl: `${base}/bad-search` } }),
    );
    expect(textOf(bad)).toMatch(/did not answer with SearXNG-style JSON/);
  });
});
