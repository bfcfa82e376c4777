import type { ModelRequest } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness } from "../harness.js";
import { resultsOf, resultText, serverState, testServerToml, toolNames } from "../mcp-support.js";

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const systemText = (r: ModelRequest) => JSON.stringify(r.system);
const sub = (marker: string) => (r: ModelRequest) => systemText(r).includes(marker);

const MARKS = {
  star: "MARKER-STAR",
  server: "MARKER-SERVER",
  exact: "MARKER-EXACT",
  all: "MARKER-ALL",
  none: "MARKER-NONE",
};
const agent = (name: string, marker: string, fields: string) =>
  `---\nname: ${name}\ndescription: The ${name} agent\n${fields}---\n${marker}\n`;
const files = {
  "README.md": "# x\n",
  ".claude/agents/star.md": agent("star", MARKS.star, "tools: Read, mcp__alpha__*\n"),
  ".claude/agents/server.md": agent("server", MARKS.server, "tools: [Grep, mcp__beta]\n"),
  ".claude/agents/exact.md": agent("exact", MARKS.exact, "tools: mcp__alpha__echo\n"),
  ".claude/agents/all.md": agent(
    "all",
    MARKS.all,
    "tools: '*'\ndisallowedTools: mcp__beta__*, ReadMcpResource\n",
  ),
  ".claude/agents/none.md": agent("none", MARKS.none, "tools: Read\n"),
};
const anySub = (r: ModelRequest) => Object.values(MARKS).some((m) => systemText(r).includes(m));
const mcpNames = (r: ModelRequest | undefined) =>
  toolNames(r).filter((n) => n.startsWith("mcp__") || n.includes("Mcp"));
const serverTools = (server: string, r: ModelRequest | undefined) =>
  mcpNames(r).filter((n) => n.startsWith(`mcp__${server}__`));

describe("a definition's MCP tools", () => {
  it("mcp__x__*, mcp__x and mcp__x__tool give only those of server x; disallowedTools removes", async () => {
    h = await harness({
      files,
      script: [],
      userSettings: `[permissions]\nallow = ["mcp__alpha", "mcp__beta"]\n\n${testServerToml("alpha")}\n${testServerToml("beta")}`,
    });
    await Promise.all([serverState(h, "alpha", "ready"), serverState(h, "beta", "ready")]);
    const call = (type: string) => ({
      name: "Agent",
      input: { description: type, prompt: "p", subagent_type: type },
    });
    h.model.push(
      when((r) => !anySub(r), reply.toolCalls(Object.keys(MARKS).map(call))),
      // The exact agent may call its one tool, and not another server's.
      when(
        sub(MARKS.exact),
        reply.toolCalls([
          { name: "mcp__alpha__echo", input: { text: "from alpha" } },
          { name: "mcp__beta__echo", input: { text: "from beta" } },
        ]),
      ),
      ...Object.values(MARKS).map((m) => when(sub(m), reply.text(`report ${m}`))),
      when((r) => !anySub(r), reply.text("done")),
    );
    expect((await h.session.run("run them")).outcome).toBe("completed");
    const first = (marker: string) => h?.model.requests.find(sub(marker));
    const main = h.model.requests.find((r) => !anySub(r));
    const alpha = serverTools("alpha", main);
    const beta = serverTools("beta", main);
    expect(alpha.length).toBeGreaterThan(5);
    expect(beta.map((n) => n.replace("beta", "alpha"))).toEqual(alpha);

    expect(mcpNames(first(MARKS.star))).toEqual(alpha);
    expect(toolNames(first(MARKS.star))).toContain("Read");
    expect(mcpNames(first(MARKS.server))).toEqual(beta);
    expect(mcpNames(first(MARKS.exact))).toEqual(["mcp__alpha__echo"]);
    expect(mcpNames(first(MARKS.all))).toEqual(["ListMcpResources", ...alpha]);
    expect(mcpNames(first(MARKS.none))).toEqual([]);

    const exactRequests = h.model.requests.filter(sub(MARKS.exact));
    const results = resultsOf(h, h.model.requests.indexOf(exactRequests[1] as ModelRequest));
    expect(resultText(results[0])).toBe("from alpha");
    expect(results[1]?.isError).toBe(true);
    expect(resultText(results[1])).toMatch(/^Unknown tool "mcp__beta__echo"/);
  });
});
