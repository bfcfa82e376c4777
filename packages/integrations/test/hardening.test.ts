import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_IMAGES_PER_RESULT, McpError } from "../src/index.js";
import { baseEnv, lines, Opened, tempDir, testServer, textOf, until } from "./helpers.js";

const opened = new Opened();
afterEach(() => opened.closeAll());
const signal = () => new AbortController().signal;

describe("McpConnection against a hostile or broken server", { timeout: 40_000 }, () => {
  it("passes at most 20 images of a result on, the rest as one note", async () => {
    const c = opened.open(testServer());
    await c.start();
    const result = await c.callTool("images", { count: 500 }, { signal: signal() });
    expect(result.content.filter((b) => b.type === "image")).toHaveLength(MAX_IMAGES_PER_RESULT);
    expect(textOf(result)).toContain("[480 more images not shown: at most 20 per result]");
  });

  it("does not repeat structured content that a text block already holds as compact JSON", async () => {
    const c = opened.open(testServer());
    await c.start();
    const result = await c.callTool("compact", {}, { signal: signal() });
    expect(textOf(result)).toBe('{"sum":3,"parts":[1,2]}');
  });

  it("coalesces a flood of 20,000 tools/list_changed into a listing or two", async () => {
    const log = join(tempDir(), "log");
    const c = opened.open(testServer("flood", ["--log-lists"]), baseEnv({ MCP_TEST_LOG: log }));
    await c.start();
    expect(lines(log).filter((l) => l === "tools/list")).toHaveLength(1);
    await c.callTool("flood", { count: 20_000 }, { signal: signal() });
    await until(() => c.refreshing === undefined && lines(log).includes("tools/list"), "refresh");
    await c.refreshing;
    // One listing once the flood is over (plus the first); a pause of the server longer than
    // the 30 ms quiet period in the middle of it (a loaded machine) may add one or two more.
    // Before the fix it was one listing per notice: 20,001.
    const listings = lines(log).filter((l) => l === "tools/list").length;
    expect(listings).toBeGreaterThanOrEqual(2);
    expect(listings).toBeLessThan(10);
    expect(c.state).toBe("ready");
  });

  it("tells onWaiting while a silent call waits, then times out with the limit", async () => {
    const c = opened.open(testServer("quiet", [], { timeoutMs: 1200 }));
    await c.start();
    const told: [number, number][] = [];
    const call = c.callTool(
      "silent",
      {},
      { signal: signal(), onWaiting: (silent, limit) => told.push([silent, limit]) },
    );
    const error = await call.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe("timeout");
    // A quarter of the limit each time, never past the limit itself.
    expect(told.slice(0, 3)).toEqual([
      [300, 1200],
      [600, 1200],
      [900, 1200],
    ]);
  });
});
