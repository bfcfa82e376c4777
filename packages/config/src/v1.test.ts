import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.js";
import { editProjectSettings } from "./persist.js";
import { v1KeyPath } from "./v1-import.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const load = () =>
  loadSettings({ env: world.env, paths: world.paths, projectRoot: world.project, trusted: true });

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

const V1_USER = `# my v1 settings
model_main = "v1-model"
model_effort = "low"
permissions_allow = ["Bash(ls)"]
permissions_deny = ["Bash(rm:*)"]
permissions_additional_directories = ["/srv"]
shell_sandbox_enabled = true
verification_max_continuations = 2
context_compact_at_percent = 75
agents_session_cost_cap_usd = 5
catalog_source = "off"
not_a_setting = 1

[[hooks_PreToolUse]]
command = "v1-hook"

[mcp_servers.files]
command = "fs"

[pricing."m"]
input = 1
output = 2
`;

describe("v1 names", () => {
  it("maps flat section_key names onto the v2 sections", () => {
    expect(v1KeyPath("model_main")).toEqual(["model", "main"]);
    expect(v1KeyPath("permissions_auto_allow_read_only_bash")).toEqual([
      "permissions",
      "auto_allow_read_only_bash",
    ]);
    expect(v1KeyPath("shell_sandbox_extra_writable")).toEqual([
      "shell",
      "sandbox",
      "extra_writable",
    ]);
    expect(v1KeyPath("hooks_PreToolUse")).toEqual(["hooks", "PreToolUse"]);
    expect(v1KeyPath("mcp_servers")).toEqual(["mcp", "servers"]);
    expect(v1KeyPath("experimental_decisions_route")).toEqual(["experimental", "decisions_route"]);
    expect(v1KeyPath("pricing")).toEqual(["pricing"]);
    expect(v1KeyPath("model")).toEqual(["model"]);
    expect(v1KeyPath("modelmain")).toBeUndefined();
    expect(v1KeyPath("shell_sandbox_nope")).toBeUndefined();
  });
});

describe("v1 import", () => {
  it("converts the user config.toml once into settings.toml and leaves config.toml alone", async () => {
    const v1 = await world.write("config/config.toml", V1_USER);
    const first = load();
    expect(first.problems.map((p) => [p.key, p.line])).toEqual([["not_a_setting", 12]]);
    const s = first.settings;
    expect(s.model).toMatchObject({ main: "v1-model", effort: "low" });
    expect(s.permissions.allow.map((r) => r.rule)).toEqual(["Bash(ls)"]);
    expect(s.permissions.deny.map((r) => r.rule)).toEqual(["Bash(rm:*)"]);
    expect(s.permissions.additional_directories).toEqual(["/srv"]);
    expect(s.shell.sandbox.enabled).toBe(true);
    expect(s.verification.max_continuations).toBe(2);
    expect(s.context.compact_at_percent).toBe(75);
    expect(s.agents.session_cost_cap_usd).toBe(5);
    expect(s.catalog.source).toBe("off");
    expect(s.hooks.PreToolUse.map((h) => h.command)).toEqual(["v1-hook"]);
    expect(s.mcp.servers).toEqual({ files: { command: "fs" } });
    expect(s.pricing).toEqual({ m: { input: 1, output: 2 } });
    expect(first.layers[0]).toMatchObject({ level: "user", importedFrom: v1 });

    expect(await readFile(v1, "utf8")).toBe(V1_USER);
    const written = await readFile(world.paths.userSettingsFile, "utf8");
    expect(written).toMatch(/^# Converted by Z Engine from the v1 file/);
    const second = load();
    expect(second.problems).toEqual([]);
    expect(second.layers[0]?.importedFrom).toBeUndefined();
    expect(second.settings).toEqual({
      ...s,
      permissions: {
        ...s.permissions,
        allow: s.permissions.allow.map((r) => ({ ...r })),
        deny: s.permissions.deny.map((r) => ({ ...r })),
      },
    });
  });

  it("does not convert a v1 file that does not parse, and says so", async () => {
    const v1 = await world.write("config/config.toml", `model_main = "x\n`);
    const result = load();
    expect(result.problems).toMatchObject([{ file: v1, line: 1 }]);
    expect(await exists(world.paths.userSettingsFile)).toBe(false);
  });

  it("reads a project's v1 config.toml in memory and converts it on the first change", async () => {
    const v1 = await world.write(
      "project/.z-engine/config.toml",
      `model_main = "proj"\npermissions_deny = ["Bash(rm:*)"]\n`,
    );
    const settingsFile = join(world.project, ".z-engine", "settings.toml");
    const result = load();
    expect(result.settings.model.main).toBe("proj");
    expect(result.layers[0]).toMatchObject({
      level: "project",
      file: settingsFile,
      importedFrom: v1,
    });
    expect(await exists(settingsFile)).toBe(false);

    await editProjectSettings(world.project, "settings", (doc) => {
      doc.context = { compact_at_percent: 90 };
    });
    const after = load();
    expect(after.layers[0]?.importedFrom).toBeUndefined();
    expect(after.settings.model.main).toBe("proj");
    expect(after.settings.permissions.deny.map((r) => r.rule)).toEqual(["Bash(rm:*)"]);
    expect(after.settings.context.compact_at_percent).toBe(90);
    expect(await readFile(v1, "utf8")).toBe(
      `model_main = "proj"\npermissions_deny = ["Bash(rm:*)"]\n`,
    );
  });

  it("prefers settings.toml when both exist", async () => {
    await world.write("config/config.toml", `model_main = "old"\n`);
    await world.write("config/settings.toml", `[model]\nmain = "new"\n`);
    expect(load().settings.model.main).toBe("new");
  });
});
