// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests write .mcp.json-style ${VAR} text on purpose.
import { join } from "node:path";
import { processAlive, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { McpError } from "../src/index.js";
import { baseEnv, lines, Opened, tempDir, testServer, textOf, until } from "./helpers.js";

const opened = new Opened();
afterEach(() => opened.closeAll());
const signal = () => new AbortController().signal;

describe("McpConnection over stdio (the SDK test server)", { timeout: 40_000 }, () => {
  it("starts, lists tools and converts results to content blocks", async () => {
    const c = opened.open(testServer());
    await c.start();
    expect(c.state).toBe("ready");
    expect(c.startMs).toBeGreaterThan(0);
    expect(c.tools.map((t) => t.name)).toContain("echo");
    expect(textOf(await c.callTool("echo", { text: "hi" }, { signal: signal() }))).toBe("hi");
    const add = await c.callTool("add", { a: 2, b: 3 }, { signal: signal() });
    expect(textOf(add)).toContain('"sum": 5');
    const image = await c.callTool("image", {}, { signal: signal() });
    expect(image.content[0]).toMatchObject({ type: "image", mediaType: "image/png" });
    const noVision = await c.callTool("image", {}, { signal: signal(), vision: false });
    expect(textOf(noVision)).toContain("Image (image/png) not shown");
    expect(textOf(await c.callTool("link", {}, { signal: signal() }))).toBe(
      "Resource link: readme <test://readme> (text/plain)",
    );
    const fail = await c.callTool("fail", {}, { signal: signal() });
    expect(fail).toMatchObject({ isError: true });
  });

  it("expands ${VAR} and ${VAR:-default} in env and args", async () => {
    const spec = testServer("env", ["--tools", "${COUNT:-2}"], {
      env: { GREETING: "${WHO} says hi", EMPTY_DEFAULT: "${NOPE:-fallback}" },
    });
    const c = opened.open(spec, baseEnv({ WHO: "ada" }));
    await c.start();
    expect(c.tools.filter((t) => /^t\d$/.test(t.name))).toHaveLength(2);
    expect(textOf(await c.callTool("env", { name: "GREETING" }, { signal: signal() }))).toBe(
      "ada says hi",
    );
    expect(textOf(await c.callTool("env", { name: "EMPTY_DEFAULT" }, { signal: signal() }))).toBe(
      "fallback",
    );
  });

  it("fails with the reason: unset variable, missing program, slow start", async () => {
    const unset = opened.open(testServer("u", [], { env: { A: "${NOT_SET_ANYWHERE}" } }));
    await unset.start();
    expect(unset.state).toBe("failed");
    expect(unset.error).toContain("NOT_SET_ANYWHERE");
    const missing = opened.open({ name: "m", type: "stdio", command: "/no/such/program" });
    await missing.start();
    expect(missing.state).toBe("failed");
    expect(missing.error).toMatch(/ENOENT|no such/i);
    const slow = opened.open(testServer("s", ["--delay-start", "5000"], { timeoutMs: 300 }));
    await slow.start();
    expect(slow.state).toBe("failed");
    expect(slow.error).toMatch(/timed out/i);
  });

  it("refreshes its tools on notifications/tools/list_changed", async () => {
    let changes = 0;
    const c = opened.open(testServer(), baseEnv(), () => changes++);
    await c.start();
    const before = changes;
    await c.callTool("grow", {}, { signal: signal() });
    await until(() => c.tools.some((t) => t.name === "grown"), "the refreshed list");
    expect(changes).toBeGreaterThan(before);
  });

  it("reports progress, and cancelling sends notifications/cancelled", async () => {
    const log = join(tempDir(), "log");
    const c = opened.open(testServer(), baseEnv({ MCP_TEST_LOG: log }));
    await c.start();
    const progress: string[] = [];
    const abort = new AbortController();
    const call = c.callTool(
      "slow",
      {},
      { signal: abort.signal, onProgress: (t) => progress.push(t) },
    );
    await until(() => lines(log).includes("slow started"), "the slow call");
    // The server sends its progress before it logs, but this side may not have read it yet:
    // a cancel before it arrives would drop it.
    await until(() => progress.length > 0, "the progress");
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: "cancelled" });
    await until(() => lines(log).some((l) => l.startsWith("cancelled ")), "the server's cancel");
    expect(progress).toEqual(["halfway there"]);
  });

  it("refuses sampling and elicitation with a clear error instead of hanging", async () => {
    const c = opened.open(testServer());
    await c.start();
    expect(textOf(await c.callTool("sample", {}, { signal: signal() }))).toMatch(
      /sampling refused: .*sampling .*not supported by Z Engine/,
    );
    expect(textOf(await c.callTool("elicit", {}, { signal: signal() }))).toMatch(
      /elicitation refused: .*elicitation .*not supported by Z Engine/,
    );
  });

  it("after a crash keeps its tools, reconnects once on the next call, then gives a clear error", async () => {
    const flag = join(tempDir(), "flag");
    const { writeFileSync, rmSync } = await import("node:fs");
    writeFileSync(flag, "");
    const spec = testServer("crashy");
    const script = `test -f '${flag}' && exec '${spec.command}' ${spec.args?.map((a) => `'${a}'`).join(" ")}`;
    const c = opened.open({ name: "crashy", type: "stdio", command: "sh", args: ["-c", script] });
    await c.start();
    const firstPid = Number(textOf(await c.callTool("pid", {}, { signal: signal() })));
    await expect(c.callTool("crash", {}, { signal: signal() })).rejects.toBeInstanceOf(McpError);
    await until(() => c.state === "disconnected", "the drop");
    expect(c.tools.length).toBeGreaterThan(0);
    const secondPid = Number(textOf(await c.callTool("pid", {}, { signal: signal() })));
    expect(secondPid).not.toBe(firstPid);
    // Now the program cannot start again: one reconnect, then a clear error, no retry loop.
    rmSync(flag);
    await expect(c.callTool("crash", {}, { signal: signal() })).rejects.toMatchObject({
      code: "connectionLost",
    });
    await until(() => c.state === "disconnected", "the second drop");
    await expect(c.callTool("echo", { text: "x" }, { signal: signal() })).rejects.toMatchObject({
      code: "connectionLost",
      message: expect.stringContaining('"crashy" is failed'),
    });
    await expect(c.callTool("echo", { text: "x" }, { signal: signal() })).rejects.toMatchObject({
      message: expect.stringContaining('"crashy" is failed'),
    });
  });

  it("lists and reads resources, lists and fills prompts", async () => {
    const c = opened.open(testServer());
    await c.start();
    expect(c.offers("resources")).toBe(true);
    expect(await c.listResources(signal())).toEqual([
      { uri: "test://readme", name: "readme", description: "The read-me.", mimeType: "text/plain" },
      { uri: "test://big", name: "big", description: "40,000 characters.", mimeType: "text/plain" },
    ]);
    expect(textOf({ content: await c.readResource("test://readme", signal()) })).toBe(
      "Resource test://readme:\nRead me first.",
    );
    await expect(c.readResource("test://nope", signal())).rejects.toMatchObject({
      code: "protocol",
    });
    const prompts = await c.listPrompts(signal());
    expect(prompts[0]?.arguments).toEqual([
      { name: "name", required: true },
      { name: "style", required: false },
    ]);
    expect(await c.getPrompt("greet", { name: "Ada", style: "warm" }, signal())).toEqual({
      description: "A greeting",
      messages: [{ role: "user", text: "Say hello to Ada in a warm way." }],
    });
  });

  it("close stops the child process, also while it is still starting", async () => {
    const c = opened.open(testServer());
    await c.start();
    const pid = c.pid as number;
    expect(await processAlive(pid)).toBe(true);
    await c.close();
    expect(await waitForProcessExit(pid)).toBe(true);
    expect(c.state).toBe("stopped");
    const log = join(tempDir(), "log");
    const slow = opened.open(
      testServer("slow", ["--delay-start", "300"]),
      baseEnv({ MCP_TEST_LOG: log }),
    );
    const start = slow.start();
    await until(() => slow.pid !== null, "the spawn");
    const slowPid = slow.pid as number;
    await slow.close();
    await start;
    expect(await waitForProcessExit(slowPid)).toBe(true);
    expect(slow.state).toBe("stopped");
  });
});
