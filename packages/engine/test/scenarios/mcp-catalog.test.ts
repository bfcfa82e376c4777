import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promptArguments } from "@z-engine/engine";
import { MCP_TEST_SERVER, reply, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";
import {
  logLines,
  resultsOf,
  resultText,
  serverState,
  testServerToml,
  toolNames,
} from "../mcp-support.js";

let h: Harness | undefined;
let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zeng-mcp-"));
});
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  await rm(dir, { recursive: true, force: true });
});

const userText = (h: Harness, i: number) =>
  (h.model.requests[i]?.messages.at(-1)?.content ?? [])
    .map((b) => (b.type === "text" ? b.text : ""))
    .join("\n");

describe("the MCP tool catalog", { timeout: 60_000 }, () => {
  it("above 40 tools lists names in a reminder; LoadMcpTools adds definitions from the next request, the prefix unchanged", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCall("LoadMcpTools", { names: ["mcp__many__t3", "mcp__many__nope"] }),
        reply.toolCall("mcp__many__t3", { x: "y" }),
        reply.text("done"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__many"]\n\n${testServerToml("many", { args: ["--tools", "40"] })}`,
    });
    await serverState(h, "many", "ready");
    await h.session.run("go");
    const [first, second] = [h.model.requests[0], h.model.requests[1]];
    expect(toolNames(first)).toContain("LoadMcpTools");
    expect(toolNames(first).filter((n) => n.startsWith("mcp__"))).toEqual([]);
    expect(userText(h, 0)).toMatch(/59 MCP tools are connected/);
    expect(userText(h, 0)).toContain("- mcp__many__t3: Extra tool number 3.\n");
    expect(userText(h, 0)).not.toContain("Second line.");
    expect(resultText(resultsOf(h, 1)[0])).toBe(
      "Loaded mcp__many__t3; call it from your next response on.\nUnknown MCP tools: mcp__many__nope.",
    );
    expect(toolNames(second).at(-1)).toBe("mcp__many__t3");
    // Byte-stable: the earlier tools and the system prompt keep their bytes.
    const before = first?.tools ?? [];
    expect(JSON.stringify(second?.tools.slice(0, before.length))).toBe(JSON.stringify(before));
    expect(JSON.stringify(second?.system)).toBe(JSON.stringify(first?.system));
    expect(resultText(resultsOf(h, 2)[0])).toBe("t3 ran");
  });

  it("trust starts the project's servers and restarts the entries that changed: the user's move from the neutral folder into the project", async () => {
    const logs = {
      keep: join(dir, "keep"),
      swapUser: join(dir, "swap-user"),
      swapProj: join(dir, "swap-proj"),
      proj: join(dir, "proj"),
    };
    const server = (log: string) => ({
      command: process.execPath,
      args: [MCP_TEST_SERVER],
      env: { MCP_TEST_LOG: log },
    });
    h = await harness({
      files: {
        "README.md": "# x\n",
        ".mcp.json": JSON.stringify({
          mcpServers: { proj: server(logs.proj), swap: server(logs.swapProj) },
        }),
      },
      script: [],
      userSettings:
        testServerToml("keep", { env: { MCP_TEST_LOG: logs.keep } }) +
        testServerToml("swap", { env: { MCP_TEST_LOG: logs.swapUser } }),
    });
    await serverState(h, "keep", "ready");
    await serverState(h, "swap", "ready");
    const oldSwap = Number(logLines(logs.swapUser)[0]?.split(" ")[1]);
    const oldKeep = Number(logLines(logs.keep)[0]?.split(" ")[1]);
    expect(h.session.mcp.servers().map((s) => s.name)).toEqual(["keep", "swap"]);
    expect(logLines(logs.proj)).toEqual([]);
    h.session.send({ type: "trustWorkspace", trusted: true });
    await h.session.idle();
    await serverState(h, "proj", "ready");
    await h.session.mcp.settled();
    expect(h.session.mcp.servers().every((s) => s.state === "ready")).toBe(true);
    // "keep" is the same entry, but its child ran in the neutral folder before trust (the
    // child-process door): trust restarts it in the project. "swap" is the project's now.
    expect(logLines(logs.keep)).toHaveLength(2);
    expect(logLines(logs.swapUser)).toHaveLength(1);
    expect(logLines(logs.swapProj)).toHaveLength(1);
    expect(logLines(logs.proj)).toHaveLength(1);
    expect(await waitForProcessExit(oldSwap)).toBe(true);
    expect(await waitForProcessExit(oldKeep)).toBe(true);
    // Trusting again changes no entry: nothing restarts.
    h.session.send({ type: "trustWorkspace", trusted: true });
    await h.session.idle();
    await h.session.mcp.settled();
    expect([logs.keep, logs.swapProj, logs.proj].map((l) => logLines(l).length)).toEqual([2, 1, 1]);
  });

  it("exposes prompts as /mcp__<server>__<prompt> commands: positional or key=value, a missing argument is an error", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [],
      userSettings: testServerToml("test"),
    });
    await serverState(h, "test", "ready");
    const prompts = await h.session.mcp.prompts();
    expect(prompts.map((p) => p.name)).toEqual(["mcp__test__greet"]);
    expect(await h.session.mcp.getPrompt("mcp__test__greet", "Ada a warm")).toEqual({
      ok: true,
      prompt: {
        description: "A greeting",
        messages: [{ role: "user", text: "Say hello to Ada in a a warm way." }],
      },
    });
    expect(
      await h.session.mcp.getPrompt("mcp__test__greet", "style=cheerful name=Bo"),
    ).toMatchObject({
      ok: true,
      prompt: { messages: [{ text: "Say hello to Bo in a cheerful way." }] },
    });
    expect(await h.session.mcp.getPrompt("mcp__test__greet", "style=cheerful")).toEqual({
      ok: false,
      error: "/mcp__test__greet needs the argument name",
    });
    expect(await h.session.mcp.getPrompt("mcp__test__nope", "")).toMatchObject({ ok: false });
  });
});

describe("promptArguments", () => {
  const prompt = {
    name: "p",
    arguments: [
      { name: "a", required: true },
      { name: "b", required: false },
    ],
  };
  it("maps words in order (the last takes the rest), key=value words by name, quoted phrases whole", () => {
    expect(promptArguments(prompt, 'x "two words"')).toEqual({
      args: { a: "x", b: "two words" },
      missing: [],
    });
    expect(promptArguments(prompt, "x y z")).toEqual({ args: { a: "x", b: "y z" }, missing: [] });
    expect(promptArguments(prompt, "b=1")).toEqual({ args: { b: "1" }, missing: ["a"] });
    expect(promptArguments(prompt, "")).toEqual({ args: {}, missing: ["a"] });
  });
});
