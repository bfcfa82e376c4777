import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.js";
import { editProjectSettings, persistAdditionalDirectory, persistProjectRule } from "./persist.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const localFile = () => join(world.project, ".z-engine", "settings.local.toml");
const load = () =>
  loadSettings({ env: world.env, paths: world.paths, projectRoot: world.project, trusted: true });

describe("persistProjectRule", () => {
  it("creates settings.local.toml and gitignores it", async () => {
    const result = await persistProjectRule(world.project, "allow", "Bash(npm test:*)");
    expect(result).toEqual({ file: localFile(), created: true });
    expect(load().settings.permissions.allow.map((r) => [r.rule, r.origin.level])).toEqual([
      ["Bash(npm test:*)", "local"],
    ]);
    const gitignore = await readFile(join(world.project, ".z-engine", ".gitignore"), "utf8");
    expect(gitignore.split("\n")).toContain("settings.local.toml");
  });

  it("keeps comments, other keys and other lists, and adds a rule once", async () => {
    const before = `# personal overrides, do not share
[model]
main = "mine" # my favourite

[permissions]
# read-only helpers
allow = ["Bash(ls)"] # keep me
deny = ["Bash(rm:*)"]
`;
    await world.write(localFile(), before);
    await world.write(join(world.project, ".z-engine", ".gitignore"), "custom-entry");
    await persistProjectRule(world.project, "allow", "Bash(npm test:*)");
    await persistProjectRule(world.project, "allow", "Bash(npm test:*)");
    await persistProjectRule(world.project, "ask", "Bash(git push:*)");
    const after = await readFile(localFile(), "utf8");
    for (const kept of [
      "# personal overrides, do not share",
      'main = "mine" # my favourite',
      "# read-only helpers",
      'deny = ["Bash(rm:*)"]',
    ]) {
      expect(after).toContain(kept);
    }
    const p = load().settings.permissions;
    expect(p.allow.map((r) => r.rule)).toEqual(["Bash(ls)", "Bash(npm test:*)"]);
    expect(p.ask.map((r) => r.rule)).toEqual(["Bash(git push:*)"]);
    expect(p.deny.map((r) => r.rule)).toEqual(["Bash(rm:*)"]);
    const gitignore = await readFile(join(world.project, ".z-engine", ".gitignore"), "utf8");
    expect(gitignore).toBe("custom-entry");
  });

  it("loses no rule when many are persisted at once", async () => {
    const rules = Array.from({ length: 25 }, (_, i) => `Bash(tool${i}:*)`);
    await Promise.all(rules.map((r) => persistProjectRule(world.project, "allow", r)));
    expect(
      load()
        .settings.permissions.allow.map((r) => r.rule)
        .sort(),
    ).toEqual([...rules].sort());
  });

  it("refuses a rule of no known form and writes nothing", async () => {
    await expect(persistProjectRule(world.project, "allow", "bash(ls)")).rejects.toMatchObject({
      code: "invalidRule",
    });
    await expect(stat(localFile())).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses to edit a file that is not TOML, leaving it as it is", async () => {
    await world.write(localFile(), "[permissions\nallow = [");
    await expect(persistProjectRule(world.project, "allow", "Bash(ls)")).rejects.toMatchObject({
      code: "settingsUnparseable",
    });
    expect(await readFile(localFile(), "utf8")).toBe("[permissions\nallow = [");
  });

  it("adds an additional directory for /add-dir --save", async () => {
    await persistAdditionalDirectory(world.project, "/srv/shared");
    await persistAdditionalDirectory(world.project, "/srv/shared");
    expect(load().settings.permissions.additional_directories).toEqual(["/srv/shared"]);
  });
});

describe("editProjectSettings", () => {
  it("creates settings.toml when missing, without touching .gitignore", async () => {
    const result = await editProjectSettings(world.project, "settings", (doc) => {
      doc.verification = { mode: "auto" };
    });
    expect(result.created).toBe(true);
    expect(load().settings.verification.mode).toBe("auto");
    await expect(stat(join(world.project, ".z-engine", ".gitignore"))).rejects.toMatchObject({
      code: "ENOENT",
    });
  });
});
