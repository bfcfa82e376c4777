import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.js";
import { findKeyLine } from "./problems.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const load = (env = world.env) =>
  loadSettings({ env, paths: world.paths, projectRoot: world.project, trusted: true });

describe("broken layers are reported, never fatal", () => {
  it("skips a file that is not TOML whole, with its line, and keeps the other layers", async () => {
    await world.write("config/settings.toml", `[permissions]\ndeny = ["Bash(rm:*)"]\n`);
    const bad = await world.write(
      "project/.z-engine/settings.toml",
      `[permissions]\nallow = ["Bash(ls)"]\nmode = "bypass\n`,
    );
    const { settings, problems, layers } = load();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: bad, line: 3 });
    expect(problems[0]?.message).toMatch(/^not valid TOML, file skipped/);
    expect(layers.find((l) => l.file === bad)?.values).toEqual({});
    expect(settings.permissions.mode).toBe("ask");
    expect(settings.permissions.allow).toEqual([]);
    expect(settings.permissions.deny.map((r) => r.rule)).toEqual(["Bash(rm:*)"]);
  });

  it("never lets a typo or a wrong type drop the deny rules beside it", async () => {
    const file = await world.write(
      "config/settings.toml",
      `# my rules
[permissions]
mode = "yolo"
alow = ["Bash(curl:*)"]
deny = ["Bash(rm:*)", 42, "bash(sudo)", "Read(./.env)"]
auto_allow_read_only_bash = "yes"

[model]
main = 7
fast = "fast-model"

[bogus]
x = 1

[verification]
max_continuations = -1
checks = [{ id = "ok", kind = "test", command = "make test" }, { id = "bad", kind = "vibes", command = "x" }, { id = "typo", kind = "test", comand = "x" }]
`,
    );
    const { settings, problems } = load();
    expect(settings.permissions.deny.map((r) => r.rule)).toEqual(["Bash(rm:*)", "Read(./.env)"]);
    expect(settings.permissions.mode).toBe("ask");
    expect(settings.permissions.allow).toEqual([]);
    expect(settings.permissions.auto_allow_read_only_bash).toBe(false);
    expect(settings.model.fast).toBe("fast-model");
    expect(settings.model.main).toBe("claude-sonnet-5-5");
    expect(settings.verification.max_continuations).toBe(3);
    expect(settings.verification.checks.map((c) => c.id)).toEqual(["ok"]);
    const byKey = Object.fromEntries(problems.map((p) => [p.key, p]));
    expect(Object.keys(byKey).sort()).toEqual(
      [
        "bogus",
        "model.main",
        "permissions.alow",
        "permissions.auto_allow_read_only_bash",
        "permissions.deny.1",
        "permissions.deny.2",
        "permissions.mode",
        "verification.checks.1.kind",
        "verification.checks.2.comand",
        "verification.checks.2.command",
        "verification.max_continuations",
      ].sort(),
    );
    for (const problem of problems) expect(problem.file).toBe(file);
    expect(byKey["permissions.mode"]?.line).toBe(3);
    expect(byKey["permissions.alow"]).toMatchObject({ line: 4, message: "unknown key `alow`" });
    expect(byKey["permissions.deny.2"]?.message).toMatch(/bad rule `bash\(sudo\)`/);
    expect(byKey["model.main"]?.line).toBe(9);
    expect(byKey.bogus?.line).toBe(12);
  });

  it("reports bad environment overrides and ignores them", () => {
    const { settings, problems } = load({
      ...world.env,
      ZENGINE_PROVIDER: "gemini",
      ZENGINE_BASE_URL: "not a url",
    });
    expect(settings.provider.kind).toBeUndefined();
    expect(settings.provider.base_url).toBeUndefined();
    expect(problems.map((p) => [p.file, p.key])).toEqual([
      ["env:ZENGINE_PROVIDER", "provider.kind"],
      ["env:ZENGINE_BASE_URL", "provider.base_url"],
    ]);
  });

  it("survives hostile content: binary bytes, a huge file, a section of the wrong type", async () => {
    await world.write("config/settings.toml", "\u0000\u0001\u00ff garbage = = =");
    const huge = `${Array.from({ length: 20000 }, (_, i) => `# comment ${i}`).join("\n")}\n[permissions]\ndeny = ["Bash(rm:*)"]\n`;
    await world.write("project/.z-engine/settings.toml", huge);
    const local = await world.write(
      "project/.z-engine/settings.local.toml",
      `permissions = "all"\nhooks = 3\n`,
    );
    const { settings, problems } = load();
    expect(settings.permissions.deny.map((r) => r.rule)).toEqual(["Bash(rm:*)"]);
    expect(problems.map((p) => p.file)).toEqual([world.paths.userSettingsFile, local, local]);
    expect(problems.slice(1).map((p) => [p.key, p.line])).toEqual([
      ["permissions", 1],
      ["hooks", 2],
    ]);
  });

  it("reports a broken .mcp.json and a bad server without losing the good ones", async () => {
    const file = await world.write(
      "project/.mcp.json",
      JSON.stringify({
        mcpServers: {
          good: { command: "srv" },
          neither: { args: ["x"] },
          weird: { type: "carrier-pigeon", url: "https://x.example" },
          typo: { comand: "x", command: "y" },
        },
      }),
    );
    const { settings, problems } = load();
    expect(Object.keys(settings.mcp.servers).sort()).toEqual(["good", "typo"]);
    expect(problems.map((p) => p.key)).toEqual([
      "mcpServers.neither",
      "mcpServers.weird",
      "mcpServers.typo.comand",
    ]);
    for (const p of problems) expect(p.file).toBe(file);
    await world.write("project/.mcp.json", "{ not json");
    const second = load();
    expect(second.problems[0]?.message).toMatch(/^not valid JSON, file skipped/);
    expect(second.settings.mcp.servers).toEqual({});
  });

  it("reports an unreadable settings path instead of throwing", async () => {
    await world.write(join("config", "settings.toml", "inside"), "x");
    const { problems } = load();
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(/^cannot read/);
  });
});

describe("findKeyLine", () => {
  it("finds keys under tables, dotted keys, quoted keys and headers", () => {
    const source = `a = 1\n[mcp.servers."my srv"]\nurl = "x"\n[model]\nmain = "m"\npermissions.allow = []\n`;
    expect(findKeyLine(source, ["a"])).toBe(1);
    expect(findKeyLine(source, ["mcp", "servers", "my srv"])).toBe(2);
    expect(findKeyLine(source, ["mcp", "servers", "my srv", "url"])).toBe(3);
    expect(findKeyLine(source, ["model", "main"])).toBe(5);
    expect(findKeyLine(source, ["model", "permissions", "allow"])).toBe(6);
    expect(findKeyLine(source, ["nowhere"])).toBeUndefined();
  });
});
