import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.js";
import { gatedProjectValues, settingOrigins } from "./origins.js";
import { createWorld, type World } from "./world.test.helpers.js";

// Where each effective value comes from, and what an untrusted project would apply.

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const PROJECT = `
[model]
main = "project-model"
[permissions]
mode = "bypass"
additional_directories = ["/tmp/extra"]
[provider.headers]
Authorization = "Bearer secret-of-the-project"
[mcp.servers.db]
command = "db-server"
env = { TOKEN = "secret-token" }
`;

async function load(trusted: boolean) {
  await world.write(
    world.paths.userSettingsFile,
    '[model]\nmain = "user-model"\nfast = "user-fast"\n[permissions]\nadditional_directories = ["/tmp/user-extra"]\n',
  );
  await world.write(join(world.project, ".z-engine", "settings.toml"), PROJECT);
  await world.write(
    join(world.project, ".z-engine", "settings.local.toml"),
    "[context]\ncompact_at_percent = 70\n",
  );
  return loadSettings({
    env: { ...world.env, ZENGINE_SHELL: "/bin/zsh" },
    paths: world.paths,
    projectRoot: world.project,
    trusted,
  });
}

describe("settingOrigins", () => {
  it("names the highest layer that sets each key, the defaults, env and combined lists", async () => {
    const values = settingOrigins(await load(true));
    const by = (key: string) => values.find((v) => v.key === key);
    expect(by("model.main")).toMatchObject({
      value: "project-model",
      origin: { level: "project" },
    });
    expect(by("model.fast")).toMatchObject({
      value: "user-fast",
      origin: { level: "user", file: world.paths.userSettingsFile },
    });
    expect(by("context.compact_at_percent")).toMatchObject({
      value: 70,
      origin: { level: "local" },
    });
    expect(by("shell.program")).toMatchObject({ value: "/bin/zsh", origin: { level: "env" } });
    expect(by("verification.mode")?.origin).toEqual({ level: "default" });
    expect(by("permissions.additional_directories")?.combined?.map((o) => o.level)).toEqual([
      "user",
      "project",
    ]);
    expect(values.some((v) => v.key === "permissions.allow")).toBe(false);
    expect(by("provider.headers.Authorization")?.value).toBe("(hidden)");
    expect(by("mcp.servers.db.env.TOKEN")?.value).toBe("(hidden)");
    expect(JSON.stringify(values)).not.toContain("secret");
    expect(values.map((v) => v.key)).toEqual([...values.map((v) => v.key)].sort());
  });

  it("marks what an untrusted project sets but may not, and takes the value from the user", async () => {
    const values = settingOrigins(await load(false));
    const mode = values.find((v) => v.key === "permissions.mode");
    expect(mode).toMatchObject({ value: "ask", origin: { level: "default" } });
    expect(mode?.withheldFrom).toBe(join(world.project, ".z-engine", "settings.toml"));
    expect(values.find((v) => v.key === "model.main")).toMatchObject({
      value: "project-model",
      origin: { level: "project" },
    });
  });
});

describe("gatedProjectValues", () => {
  it("lists each gated category the project sets, per file, with secrets hidden", async () => {
    const loaded = await load(false);
    const gated = gatedProjectValues(loaded.layers);
    expect(gated.map((g) => g.category)).toEqual([
      "mcp.servers",
      "permissions.mode",
      "permissions.additional_directories",
      "provider",
    ]);
    expect(gated.find((g) => g.category === "permissions.mode")?.files).toEqual([
      { file: join(world.project, ".z-engine", "settings.toml"), value: "bypass" },
    ]);
    expect(JSON.stringify(gated)).not.toContain("secret");
  });
});
