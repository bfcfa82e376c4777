import { describe, expect, it } from "vitest";
import { assignToolNames, MAX_TOOL_NAME_LENGTH, serverNameProblem } from "./naming.js";

describe("MCP tool names", () => {
  it("keep the plain name when it is free and fits", () => {
    const { names, renamed } = assignToolNames("github", ["create_issue", "odd name.v2"]);
    expect([...names]).toEqual([
      ["create_issue", "mcp__github__create_issue"],
      ["odd name.v2", "mcp__github__odd_name_v2"],
    ]);
    expect(renamed).toEqual([]);
  });

  it("are unique: a_b keeps its name and a.b gets a stable hashed one, with the reason", () => {
    const first = assignToolNames("s", ["a.b", "a_b"]);
    expect(first.names.get("a_b")).toBe("mcp__s__a_b");
    const other = first.names.get("a.b") ?? "";
    expect(other).toMatch(/^mcp__s__a_b_[0-9a-f]{6}$/);
    expect(first.renamed).toEqual([
      { tool: "a.b", name: other, why: "mcp__s__a_b is taken by another of its tools" },
    ]);
    // The same in another session, and whatever the listing order.
    expect(assignToolNames("s", ["a_b", "a.b"]).names.get("a.b")).toBe(other);
  });

  it("are at most 64 characters: a 216-character name is cut and hashed", () => {
    const long = `long${"x".repeat(212)}`;
    const { names, renamed } = assignToolNames("server", [long, `${long}2`]);
    const a = names.get(long) ?? "";
    const b = names.get(`${long}2`) ?? "";
    expect(a.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(b.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(a).not.toBe(b);
    expect(renamed.map((r) => r.why)).toEqual([
      "its name is longer than 64 characters",
      "its name is longer than 64 characters",
    ]);
  });

  it("leave out a tool with no name", () => {
    const { names, renamed } = assignToolNames("s", ["", "ok"]);
    expect([...names.keys()]).toEqual(["ok"]);
    expect(renamed).toEqual([{ tool: "", why: "it has no name" }]);
  });

  it("refuse server names that would make mcp__ rules ambiguous or leave no room", () => {
    expect(serverNameProblem("github")).toBeUndefined();
    expect(serverNameProblem("my server.v2")).toBeUndefined();
    expect(serverNameProblem("a__b")).toMatch(/holds "__"/);
    expect(serverNameProblem("a._b")).toMatch(/holds "__"/);
    expect(serverNameProblem("trailing_")).toMatch(/ends in "_"/);
    expect(serverNameProblem("")).toMatch(/needs a name/);
    expect(serverNameProblem("s".repeat(60))).toMatch(/too long/);
  });
});
