import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFixtureRepo, processAlive, reply, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hookScripts } from "../hook-scripts.js";
import { type Harness, harness } from "../harness.js";
import {
  logLines,
  resultsOf,
  resultText,
  serverState,
  testServerToml,
  toolNames,
  until,
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

describe("MCP servers in a session", { timeout: 60_000 }, () => {
  it("start in the background: the first request does not wait, tools join when ready, a notice and events tell", async () => {
    const log = join(dir, "log");
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [reply.text("first"), reply.text("second")],
      userSettings: `${testServerToml("slow one", {
        args: ["--delay-start", "1500"],
        env: { MCP_TEST_LOG: log },
      })}[mcp.servers.broken]\ncommand = "/no/such/mcp-server"\n`,
    });
    const first = await h.session.run("hello");
    expect(first.outcome).toBe("completed");
    // The slow server had not even reached its start when the first request went out.
    expect(toolNames(h.model.requests[0]).some((n) => n.startsWith("mcp__"))).toBe(false);
    expect(logLines(log)).toEqual([]);
    await serverState(h, "slow one", "ready");
    const notice = await h.recorder.waitFor("notice", { code: "mcp.servers" });
    expect(notice.message).toMatch(/ready: slow one \(19 tools\)/);
    expect(notice.message).toMatch(/failed: broken \(.*(ENOENT|no such).*\)/i);
    expect(notice.level).toBe("warning");
    expect(
      h.recorder.ofType("mcpServerUpdated").map((e) => [e.server.name, e.server.state]),
    ).toEqual([
      ["slow one", "starting"],
      ["broken", "starting"],
      ["broken", "failed"],
      ["slow one", "ready"],
    ]);
    await h.session.run("again");
    const names = toolNames(h.model.requests[1]);
    expect(names).toContain("mcp__slow_one__echo");
    expect(names).toContain("mcp__slow_one__odd_name_v2");
    expect(names).toContain("ListMcpResources");
    expect(h.session.mcp.servers()).toMatchObject([
      { name: "slow one", state: "ready", transport: "stdio", tools: 19 },
      { name: "broken", state: "failed" },
    ]);
  });

  it("gate each call: ask by default, a rule allows, hooks match mcp__ names, disabled_tools are left out", async () => {
    const hooks = await hookScripts([
      { event: "PreToolUse", matcher: "mcp__test__.*", body: 'cat > "$HOOK_DIR/pre.json"' },
    ]);
    const asked: string[] = [];
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCall("mcp__test__echo", { text: "hi" }),
        reply.toolCall("mcp__test__add", { a: 1, b: 2 }),
        reply.toolCall("mcp__test__fail", {}),
        reply.text("done"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__test__add"]\n\n${testServerToml("test", { extra: 'disabled_tools = ["crash"]' })}\n${hooks.toml}`,
      approve: (r) => {
        asked.push(`${r.toolName} ${r.suggestedRules.join(",")}`);
        return r.toolName === "mcp__test__echo" ? { type: "allowOnce" } : { type: "deny" };
      },
    });
    await serverState(h, "test", "ready");
    await h.session.run("call it");
    // echo asks (read-only or not, MCP tools ask); add is allowed by the rule; fail is denied.
    expect(asked).toEqual(["mcp__test__echo mcp__test__echo", "mcp__test__fail mcp__test__fail"]);
    expect(resultText(resultsOf(h, 1)[0])).toBe("hi");
    expect(resultText(resultsOf(h, 2)[0])).toBe('3\nStructured content:\n{\n  "sum": 3\n}');
    expect(resultsOf(h, 3)[0]?.isError).toBe(true);
    expect(JSON.parse(await hooks.read("pre.json"))).toMatchObject({
      tool_name: "mcp__test__fail",
    });
    expect(toolNames(h.model.requests[0])).not.toContain("mcp__test__crash");
    expect(toolNames(h.model.requests[0])).toContain("mcp__test__echo");
    await hooks.dispose();
  });

  it("convert results (images, long text to an artifact), refresh on list_changed, read resources", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCalls([
          { name: "mcp__test__image", input: {} },
          { name: "mcp__test__big", input: { size: 40_000 } },
          { name: "ListMcpResources", input: {} },
          { name: "ReadMcpResource", input: { server: "test", uri: "test://readme" } },
        ]),
        reply.toolCall("mcp__test__grow", {}),
        reply.toolCall("mcp__test__grown", {}),
        reply.text("done"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__test"]\n\n${testServerToml("test")}`,
    });
    await serverState(h, "test", "ready");
    await h.session.run("go");
    const [image, big, list, read] = resultsOf(h, 1);
    expect(image?.content[0]).toMatchObject({ type: "image", mediaType: "image/png" });
    expect(resultText(big)).toMatch(
      /Output truncated: 40000 characters in all; the full output is stored as/,
    );
    expect(resultText(big).length).toBeLessThan(31_000);
    expect(resultText(list).split("\n").slice(0, 2)).toEqual([
      "test: test://readme readme (text/plain): The read-me.",
      "test: test://big big (text/plain): 40,000 characters.",
    ]);
    expect(resultText(read)).toBe("Resource test://readme:\nRead me first.");
    // grow announced list_changed: the request after it offers the new tool, and it runs.
    expect(toolNames(h.model.requests[1])).not.toContain("mcp__test__grown");
    expect(toolNames(h.model.requests[2])).toContain("mcp__test__grown");
    expect(resultText(resultsOf(h, 3)[0])).toBe("I am new");
  });

  it("after a crash keep the tools, reconnect on the next call; closing the session leaves no process", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCall("mcp__test__pid", {}),
        reply.toolCall("mcp__test__crash", {}),
        reply.toolCall("mcp__test__pid", {}),
        reply.text("done"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__test"]\n\n${testServerToml("test")}`,
    });
    await serverState(h, "test", "ready");
    await h.session.run("go");
    const first = Number(resultText(resultsOf(h, 1)[0]));
    expect(resultsOf(h, 2)[0]?.isError).toBe(true);
    expect(resultText(resultsOf(h, 2)[0])).toMatch(
      /connection to "test" closed during the call of crash/,
    );
    expect(toolNames(h.model.requests[2])).toContain("mcp__test__pid");
    const second = Number(resultText(resultsOf(h, 3)[0]));
    expect(second).toBeGreaterThan(0);
    expect(second).not.toBe(first);
    expect(await processAlive(second)).toBe(true);
    await h.session.close();
    expect(await waitForProcessExit(second)).toBe(true);
  });

  it("cancel a call with notifications/cancelled; progress becomes toolProgress; sampling is refused", async () => {
    const log = join(dir, "log");
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCall("mcp__test__sample", {}),
        reply.toolCall("mcp__test__slow", {}),
        reply.text("never"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__test"]\n\n${testServerToml("test", { env: { MCP_TEST_LOG: log } })}`,
    });
    await serverState(h, "test", "ready");
    const end = h.session.run("go");
    await until(() => logLines(log).includes("slow started"), "the slow call");
    await h.recorder.waitFor("toolProgress", { text: "halfway there" });
    h.session.send({ type: "interrupt" });
    expect((await end).outcome).toBe("cancelled");
    await until(
      () => logLines(log).some((l) => l.startsWith("cancelled ")),
      "notifications/cancelled",
    );
    expect(resultText(resultsOf(h, 1)[0])).toMatch(/sampling refused: .*not supported by Z Engine/);
    expect(h.recorder.ofType("toolFinished").at(-1)?.status).toBe("cancelled");
  });

  it("a host script that only awaits session.mcp.settled() gets the servers, not an early exit", async () => {
    const repo = await createFixtureRepo({ files: { "README.md": "# x\n" } });
    const child = spawnSync(
      process.execPath,
      [
        fileURLToPath(new URL("../child-mcp-settled.mjs", import.meta.url)),
        JSON.stringify({
          home: join(dir, "home"),
          project: repo.root,
          settings: testServerToml("one"),
        }),
      ],
      { encoding: "utf8", timeout: 30_000 },
    );
    await repo.dispose();
    // Node exits with 13 when the top-level await never settles (the held start's timer
    // does not keep the process alive).
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe("servers one=ready");
  });
});
