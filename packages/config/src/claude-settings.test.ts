import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.js";
import { trustGated } from "./trust-gate.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const CLAUDE_SETTINGS = JSON.stringify({
  $schema: "https://json.schemastore.org/claude-code-settings.json",
  permissions: {
    allow: ["Bash(npm run test:*)"],
    deny: ["Read(./secrets/**)"],
    defaultMode: "acceptEdits",
    additionalDirectories: ["../shared"],
  },
  hooks: {
    PreToolUse: [
      { matcher: "Edit|Write", hooks: [{ type: "command", command: "./lint.sh", timeout: 30 }] },
      { matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] },
    ],
    Stop: [{ hooks: [{ type: "command", command: "./done.sh" }] }],
  },
  model: "opus",
});

const load = (trusted: boolean) =>
  loadSettings({ env: world.env, paths: world.paths, projectRoot: world.project, trusted });

describe(".claude/settings.json", () => {
  it("gives its hooks, rules, mode and folders to a trusted project", async () => {
    await world.write(join(world.project, ".claude/settings.json"), CLAUDE_SETTINGS);
    const { settings, problems } = load(true);
    expect(settings.hooks.PreToolUse.map((h) => [h.matcher, h.command, h.timeout_secs])).toEqual([
      ["Edit|Write", "./lint.sh", 30],
      ["Bash", "./guard.sh", undefined],
    ]);
    expect(settings.hooks.Stop.map((h) => h.command)).toEqual(["./done.sh"]);
    expect(settings.permissions.allow.map((r) => r.rule)).toEqual(["Bash(npm run test:*)"]);
    expect(settings.permissions.deny.map((r) => r.rule)).toEqual(["Read(./secrets/**)"]);
    expect(settings.permissions.mode).toBe("acceptEdits");
    expect(settings.permissions.additional_directories).toEqual([join(world.base, "shared")]);
    // One notice for the file, naming the keys zeng does not use.
    expect(problems).toEqual([
      expect.objectContaining({ message: "keys zeng does not use: model" }),
    ]);
  });

  it("is trust-gated like .z-engine: deny holds, hooks and allow are withheld and reported", async () => {
    await world.write(join(world.project, ".claude/settings.json"), CLAUDE_SETTINGS);
    const { settings, withheld, layers } = load(false);
    expect(settings.permissions.deny.map((r) => r.rule)).toEqual(["Read(./secrets/**)"]);
    expect(settings.hooks.PreToolUse).toEqual([]);
    expect(settings.permissions.allow).toEqual([]);
    expect(withheld).toEqual(
      expect.arrayContaining(["hooks", "permissions.mode", "permissions.allow"]),
    );
    expect(trustGated(layers)).toEqual(
      expect.arrayContaining(["hooks", "permissions.allow", "permissions.additional_directories"]),
    );
  });

  it("ranks .z-engine above .claude at each scope, local above shared", async () => {
    await world.write(
      join(world.project, ".claude/settings.json"),
      JSON.stringify({ permissions: { defaultMode: "plan" } }),
    );
    await world.write(
      join(world.project, ".z-engine/settings.toml"),
      '[permissions]\nmode = "ask"\n',
    );
    expect(load(true).settings.permissions.mode).toBe("ask");
    await world.write(
      join(world.project, ".claude/settings.local.json"),
      JSON.stringify({ permissions: { defaultMode: "bypassPermissions" } }),
    );
    const { settings, layers } = load(true);
    expect(settings.permissions.mode).toBe("bypass");
    expect(layers.map((l) => l.file.slice(world.project.length + 1))).toEqual([
      ".claude/settings.json",
      ".z-engine/settings.toml",
      ".claude/settings.local.json",
    ]);
  });

  it("reads ~/.claude/settings.json as the user level, kept when the project is untrusted", async () => {
    await world.write(
      join(world.base, "home/.claude/settings.json"),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo hi" }] }] },
      }),
    );
    const { settings } = load(false);
    expect(settings.hooks.SessionStart.map((h) => [h.command, h.origin.level])).toEqual([
      ["echo hi", "user"],
    ]);
  });

  it("applies enabledMcpjsonServers / disabledMcpjsonServers to .mcp.json", async () => {
    await world.write(
      join(world.project, ".mcp.json"),
      JSON.stringify({
        mcpServers: { a: { command: "a" }, b: { command: "b" }, c: { command: "c" } },
      }),
    );
    await world.write(
      join(world.project, ".claude/settings.json"),
      JSON.stringify({ enabledMcpjsonServers: ["a", "b"], disabledMcpjsonServers: ["b"] }),
    );
    const servers = load(true).settings.mcp.servers;
    expect([servers.a?.enabled, servers.b?.enabled, servers.c?.enabled]).toEqual([
      undefined,
      false,
      false,
    ]);
    await world.write(
      join(world.project, ".claude/settings.local.json"),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    const all = load(true).settings.mcp.servers;
    expect([all.a?.enabled, all.b?.enabled, all.c?.enabled]).toEqual([undefined, false, undefined]);
  });

  it("reports bad JSON, unknown events, other hook types and bad rules without losing the rest", async () => {
    await world.write(join(world.project, ".claude/settings.local.json"), "{ nope");
    await world.write(
      join(world.project, ".claude/settings.json"),
      JSON.stringify({
        permissions: { deny: ["Bash(rm:*)", "Bash("], defaultMode: "dontAsk" },
        hooks: {
          PermissionRequest: [{ hooks: [{ type: "command", command: "x" }] }],
          PostToolUse: [
            {
              matcher: "*",
              hooks: [
                { type: "prompt", prompt: "p" },
                { type: "command", command: "fmt" },
              ],
            },
          ],
        },
      }),
    );
    const { settings, problems } = load(true);
    expect(settings.permissions.deny.map((r) => r.rule)).toEqual(["Bash(rm:*)"]);
    expect(settings.hooks.PostToolUse.map((h) => h.command)).toEqual(["fmt"]);
    const text = problems.map((p) => `${p.file.split("/").pop()} ${p.key ?? ""} ${p.message}`);
    expect(text.join("\n")).toMatch(/settings\.local\.json .*not valid JSON/);
    expect(text.join("\n")).toMatch(/PermissionRequest` is not run/);
    expect(text.join("\n")).toMatch(/type `prompt` is not run/);
    expect(text.join("\n")).toMatch(/dontAsk/);
    expect(text.join("\n")).toMatch(/permissions\.deny/);
  });
});
