// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the specs hold ${VAR} text on purpose.
import { type ChildProcess, spawn } from "node:child_process";
import { MCP_TEST_SERVER } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { baseEnv, Opened, textOf } from "./helpers.js";

const opened = new Opened();
const children: ChildProcess[] = [];
afterEach(async () => {
  await opened.closeAll();
  for (const child of children.splice(0)) child.kill();
});
const signal = () => new AbortController().signal;

/** Starts the test server in an HTTP mode and resolves with its port once it listens. */
function serve(mode: "--http" | "--sse", env: Record<string, string> = {}): Promise<number> {
  const child = spawn(process.execPath, [MCP_TEST_SERVER, mode, "0"], {
    env: { ...baseEnv(), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

describe("McpConnection over the remote transports", { timeout: 30_000 }, () => {
  it("speaks streamable HTTP with headers expanded from the environment", async () => {
    const port = await serve("--http", { MCP_TEST_TOKEN: "s3cret" });
    const good = opened.open(
      {
        name: "remote",
        type: "http",
        url: "http://127.0.0.1:${PORT}/mcp",
        headers: { "x-test-token": "${TOKEN}" },
      },
      baseEnv({ PORT: String(port), TOKEN: "s3cret" }),
    );
    await good.start();
    expect(good.state).toBe("ready");
    expect(textOf(await good.callTool("echo", { text: "over http" }, { signal: signal() }))).toBe(
      "over http",
    );
    const bad = opened.open(
      {
        name: "bad",
        type: "http",
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { "x-test-token": "nope" },
      },
      baseEnv(),
    );
    await bad.start();
    expect(bad.state).toBe("failed");
    expect(bad.error).toMatch(/bad token/);
  });

  it("speaks the legacy SSE transport, headers included", async () => {
    const port = await serve("--sse", { MCP_TEST_TOKEN: "t" });
    const c = opened.open({
      name: "legacy",
      type: "sse",
      url: `http://127.0.0.1:${port}/sse`,
      headers: { "x-test-token": "t" },
    });
    await c.start();
    expect(c.state).toBe("ready");
    expect(textOf(await c.callTool("echo", { text: "over sse" }, { signal: signal() }))).toBe(
      "over sse",
    );
    const progress: string[] = [];
    const abort = new AbortController();
    const slow = c.callTool(
      "slow",
      {},
      { signal: abort.signal, onProgress: (t) => progress.push(t) },
    );
    while (progress.length === 0) await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    await expect(slow).rejects.toMatchObject({ code: "cancelled" });
    expect(progress).toEqual(["halfway there"]);
  });

  it("fails clearly when nothing listens or the URL is bad", async () => {
    const closed = opened.open({
      name: "none",
      type: "http",
      url: "http://127.0.0.1:9/mcp",
      timeoutMs: 3000,
    });
    await closed.start();
    expect(closed.state).toBe("failed");
    expect(closed.error).toBeTruthy();
    const bad = opened.open({ name: "bad", type: "http", url: "${NOPE:-not a url}" });
    await bad.start();
    expect(bad).toMatchObject({ state: "failed", error: "not a valid URL: not a url" });
  });
});
