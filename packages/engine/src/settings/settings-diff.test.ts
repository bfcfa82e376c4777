import { describe, expect, it } from "vitest";
import { changedEntries, changedSettings } from "./settings-diff.js";

describe("changedSettings", () => {
  it("names a section's keys, and named entries one level further, never values", () => {
    const before = {
      model: { main: "a", fallbacks: ["x"] },
      mcp: { servers: { one: { command: "a" }, two: { command: "b" } } },
      env: { TOKEN: "secret-1" },
    };
    const after = {
      model: { main: "b", fallbacks: ["x", "y"] },
      mcp: { servers: { one: { command: "a" }, two: { command: "c", args: ["-v"] }, three: {} } },
      env: { TOKEN: "secret-2" },
    };
    const changed = changedSettings(before, after);
    expect(changed).toEqual([
      "env.TOKEN",
      "mcp.servers.three",
      "mcp.servers.two",
      "model.fallbacks",
      "model.main",
    ]);
    expect(changed.join(" ")).not.toContain("secret");
    expect(changedEntries(changed, "mcp.servers")).toEqual(["three", "two"]);
    expect(changedSettings(before, structuredClone(before))).toEqual([]);
  });
});
