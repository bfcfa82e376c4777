import { describe, expect, it } from "vitest";
import {
  BUILTIN_TOOL_NAMES,
  basePrompt,
  builtinCommands,
  compactionPrompt,
  loadBuiltinAgents,
  outputStyles,
  toolDescription,
} from "./builtins.js";

describe("built-in prompts", () => {
  it("has a base prompt about reading first, verifying and honest reports", () => {
    const text = basePrompt();
    expect(text).toMatch(/Read before you edit/);
    expect(text).toMatch(/Verify tool/);
    expect(text).toMatch(/Report honestly/);
    expect(basePrompt()).toBe(text);
    expect(compactionPrompt()).toMatch(/Next steps/);
  });

  it("describes every built-in tool, and only those", () => {
    for (const name of BUILTIN_TOOL_NAMES) {
      const text = toolDescription(name);
      expect(text.length, name).toBeGreaterThan(60);
      expect(text).not.toMatch(/^---/);
    }
    expect(new Set(BUILTIN_TOOL_NAMES).size).toBe(22);
    expect(toolDescription("Read")).toContain("file_path");
    expect(toolDescription("Bash")).toContain("run_in_background");
  });

  it("defines the five built-in agents with tools, model role and permission mode", () => {
    const agents = loadBuiltinAgents();
    expect(agents.map((a) => a.name)).toEqual(["explore", "general", "plan", "review", "verify"]);
    const byName = new Map(agents.map((a) => [a.name, a]));
    expect(byName.get("general")).toMatchObject({
      tools: undefined,
      model: "inherit",
      permissionMode: undefined,
    });
    expect(byName.get("explore")).toMatchObject({ model: "fast", permissionMode: "plan" });
    expect(byName.get("explore")?.tools).not.toContain("Edit");
    expect(byName.get("verify")?.tools).toContain("Verify");
    const known = new Set<string>(BUILTIN_TOOL_NAMES);
    for (const agent of agents) {
      expect(agent.prompt.length).toBeGreaterThan(100);
      for (const tool of agent.tools ?? [])
        expect(known.has(tool), `${agent.name}: ${tool}`).toBe(true);
    }
    expect(Object.isFrozen(agents)).toBe(true);
  });

  it("defines the prompt commands init, review and security-review", () => {
    const commands = builtinCommands();
    expect(commands.map((c) => c.name)).toEqual(["init", "review", "security-review"]);
    for (const command of commands) {
      expect(command.description.length).toBeGreaterThan(10);
      expect(command.body).toContain("$ARGUMENTS");
    }
    expect(commands.find((c) => c.name === "review")?.allowedTools).toContain("Bash(git diff:*)");
  });

  it("offers output styles, the default one adding nothing", () => {
    const styles = outputStyles();
    expect(styles.map((s) => s.name)).toEqual(["default", "explanatory", "learning"]);
    expect(styles[0]?.prompt).toBe("");
    expect(styles[1]?.prompt).toMatch(/Insight/);
  });
});
