import { MCP_TEST_SERVER, reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";
import { resultsOf, resultText, serverState, testServerToml, toolNames } from "../mcp-support.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const asked: string[] = [];
const denyAll = (r: { toolName: string; suggestedRules: readonly string[] }) => {
  asked.push(`${r.toolName} ${r.suggestedRules.join(",")}`);
  return { type: "deny" as const };
};

describe("MCP servers that a hostile or careless server controls (issue 38)", {
  timeout: 60_000,
}, () => {
  it("13: mcp__<server> rules gate ListMcpResources and ReadMcpResource, deny included", async () => {
    asked.length = 0;
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCalls([
          { name: "ListMcpResources", input: {} },
          { name: "ReadMcpResource", input: { server: "secret", uri: "test://readme" } },
          { name: "ListMcpResources", input: { server: "open" } },
          { name: "ReadMcpResource", input: { server: "open", uri: "test://readme" } },
          { name: "ReadMcpResource", input: { server: "plain", uri: "test://readme" } },
        ]),
        reply.text("done"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__open"]\ndeny = ["mcp__secret"]\n\n${testServerToml("secret")}${testServerToml("open")}${testServerToml("plain")}`,
      approve: denyAll,
    });
    await Promise.all(
      ["secret", "open", "plain"].map((n) => serverState(h as Harness, n, "ready")),
    );
    await h.session.run("go");
    const [all, secret, list, read, plain] = resultsOf(h, 1);
    // Listing every server lists the denied one too, so the deny rule refuses it.
    expect(resultText(all)).toMatch(
      /Permission denied: call the MCP tool \w+ of secret is denied by .*mcp__secret/,
    );
    expect(resultText(secret)).toMatch(
      /Permission denied: call the MCP tool \w+ of secret is denied by .*mcp__secret/,
    );
    expect(resultText(list)).toContain("open: test://readme readme");
    expect(resultText(read)).toBe("Resource test://readme:\nRead me first.");
    // No rule: it asks, as the server's tools do.
    expect(plain?.isError).toBe(true);
    expect(asked).toEqual(["ReadMcpResource mcp__plain__ReadMcpResource"]);
  });

  it("13: plan mode still lets a server's resources be read", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCall("ReadMcpResource", { server: "open", uri: "test://readme" }),
        reply.text("done"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__open"]\n\n${testServerToml("open")}`,
      overrides: { mode: "plan" },
    });
    await serverState(h, "open", "ready");
    await h.session.run("go");
    expect(resultText(resultsOf(h, 1)[0])).toBe("Resource test://readme:\nRead me first.");
  });

  it("14, 26: tool names unique and at most 64 characters, renames reported, descriptions cleaned and cut", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [reply.text("one"), reply.text("two")],
      userSettings: testServerToml("odd", { args: ["--odd-names"] }),
    });
    await serverState(h, "odd", "ready");
    const notice = await h.recorder.waitFor("notice", { code: "mcp.toolNames" });
    await h.session.run("go");
    const tools = h.model.requests[0]?.tools ?? [];
    const names = tools.map((t) => t.name).filter((n) => n.startsWith("mcp__"));
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => n.length <= 64)).toBe(true);
    expect(names).toContain("mcp__odd__a_b");
    const dotted = names.find((n) => /^mcp__odd__a_b_[0-9a-f]{6}$/.test(n));
    expect(dotted).toBeDefined();
    expect(notice.message).toContain(`"a.b" is offered as ${dotted} (mcp__odd__a_b is taken`);
    expect(notice.message).toMatch(
      /"longx+\.\.\." is offered as mcp__odd__longx+_[0-9a-f]{6} \(its name is longer than 64 characters\)/,
    );
    const hidden = tools.find((t) => t.name === "mcp__odd__hidden");
    expect(hidden?.description).toMatch(/^Looks safe\.exe here\./);
    expect(hidden?.description.length).toBeLessThanOrEqual(2048);
    // biome-ignore lint/complexity/useRegexLiterals: as a literal, the control characters trip another lint.
    expect(hidden?.description).not.toMatch(new RegExp("[\\u0000\\u202e\\u2066\\u200b]"));
  });

  it("14: a server name holding __ or taken by another as a rule name fails with the reason", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [reply.text("one")],
      userSettings: `${testServerToml("x__y")}${testServerToml("my.server")}${testServerToml("my_server")}`,
    });
    await serverState(h, "my.server", "ready");
    await h.session.mcp.settled();
    const states = Object.fromEntries(h.session.mcp.servers().map((s) => [s.name, s]));
    expect(states.x__y).toMatchObject({ state: "failed" });
    expect(states.x__y?.error).toMatch(/holds "__"/);
    expect(states.my_server).toMatchObject({ state: "failed" });
    expect(states.my_server?.error).toMatch(/as the server "my.server" is/);
    await h.session.run("go");
    const names = toolNames(h.model.requests[0]);
    expect(names.some((n) => n.startsWith("mcp__x__y"))).toBe(false);
    expect(names).toContain("mcp__my_server__echo");
  });

  it("15: a long resource goes to an artifact; 500 images become 20 and a note", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [
        reply.toolCalls([
          { name: "ReadMcpResource", input: { server: "test", uri: "test://big" } },
          { name: "mcp__test__images", input: { count: 500 } },
        ]),
        reply.text("done"),
      ],
      userSettings: `[permissions]\nallow = ["mcp__test"]\n\n${testServerToml("test")}`,
    });
    await serverState(h, "test", "ready");
    await h.session.run("go");
    const [big, images] = resultsOf(h, 1);
    expect(resultText(big)).toMatch(
      /Output truncated: 40\d\d\d characters in all; the full output is stored as/,
    );
    expect(resultText(big).length).toBeLessThan(31_000);
    expect(images?.content.filter((c) => c.type === "image")).toHaveLength(20);
    expect(resultText(images)).toContain("[480 more images not shown: at most 20 per result]");
  });

  it("19: a silent server gets a notice while the turn waits, and the call ends at its limit", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      script: [reply.toolCall("mcp__quiet__silent", {}), reply.text("done")],
      userSettings: `[permissions]\nallow = ["mcp__quiet"]\n\n${testServerToml("quiet", { extra: "timeout = 1600" })}`,
    });
    await serverState(h, "quiet", "ready");
    await h.session.run("go");
    const notice = h.recorder.ofType("notice").find((n) => n.code === "mcp.slowCall");
    expect(notice?.message).toMatch(
      /"quiet" has not answered the call of silent for 0 s; the call gives up after 2 s/,
    );
    expect(h.recorder.ofType("toolProgress").map((p) => p.text)).toContain(
      'waiting for the MCP server "quiet": no answer for 1 s (gives up after 2 s)',
    );
    const result = resultsOf(h, 1)[0];
    expect(result?.isError).toBe(true);
    expect(resultText(result)).toMatch(/timed out/i);
  });

  it("22: a trusted project's server named like the user's does not inherit the user's allow rule, and is named", async () => {
    asked.length = 0;
    const project = JSON.stringify({
      mcpServers: {
        github: { command: process.execPath, args: [MCP_TEST_SERVER, "--tools", "1"] },
      },
    });
    h = await harness({
      files: { "README.md": "# x\n", ".mcp.json": project },
      script: [reply.toolCall("mcp__github__echo", { text: "hi" }), reply.text("done")],
      userSettings: `[permissions]\nallow = ["mcp__github"]\n\n${testServerToml("github")}`,
      approve: denyAll,
    });
    const replaced = await h.recorder.waitFor("notice", { code: "trust.mcpReplaced" });
    expect(replaced.message).toMatch(
      /its own MCP server "github", replacing yours .*your allow rules for mcp__github do not apply/,
    );
    const from = h.recorder.envelopes.length;
    h.session.send({ type: "trustWorkspace", trusted: true });
    await h.recorder.waitFor("notice", { code: "trust.mcpReplaced" }, { fromIndex: from });
    await h.session.mcp.settled();
    await serverState(h, "github", "ready");
    await h.session.run("go");
    expect(asked).toEqual(["mcp__github__echo mcp__github__echo"]);
    expect(resultsOf(h, 1)[0]?.isError).toBe(true);
  });
});
