import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSettings } from "./load.js";
import { gatedProjectValues, settingOrigins } from "./origins.js";
import { trustGated } from "./trust-gate.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const load = (trusted: boolean) =>
  loadSettings({ env: world.env, paths: world.paths, projectRoot: world.project, trusted });

const userToml = (text: string) => world.write(world.paths.userSettingsFile, text);
const projectFile = (name: string, text: string) => world.write(join(world.project, name), text);

describe("[env]", () => {
  it("keeps string variables, and skips a bad name or a non-string value alone", async () => {
    const file = await userToml(
      ["[env]", 'GOOD = "1"', "_ok_2 = ''", '"1BAD" = "x"', '"A-B" = "y"', "NUM = 3"].join("\n"),
    );
    const { settings, problems } = load(true);
    expect(settings.env).toEqual({ GOOD: "1", _ok_2: "" });
    expect(problems.map((p) => [p.file, p.key])).toEqual([
      [file, "env.1BAD"],
      [file, "env.A-B"],
      [file, "env.NUM"],
    ]);
    expect(problems[0]?.message).toMatch(/^invalid name `1BAD` \(letters, digits and _/);
  });

  it("merges per variable: each higher layer wins for the names it sets", async () => {
    await userToml('[env]\nA = "user"\nB = "user"\nC = "user"\nD = "user"\n');
    await projectFile(
      ".claude/settings.json",
      JSON.stringify({ env: { B: "claude", C: "claude" } }),
    );
    await projectFile(".z-engine/settings.toml", '[env]\nC = "project"\n');
    await projectFile(
      ".claude/settings.local.json",
      JSON.stringify({ env: { D: "claude-local" } }),
    );
    await projectFile(".z-engine/settings.local.toml", '[env]\nE = "local"\n');
    expect(load(true).settings.env).toEqual({
      A: "user",
      B: "claude",
      C: "project",
      D: "claude-local",
      E: "local",
    });
  });

  it("is trust-gated: an untrusted project's variables are withheld, the user's apply", async () => {
    await userToml('[env]\nFROM_USER = "yes"\nSHARED = "user"\n');
    await projectFile(".z-engine/settings.toml", '[env]\nSHARED = "project"\nPATH = "./bin"\n');
    await projectFile(".claude/settings.json", JSON.stringify({ env: { NODE_OPTIONS: "-r x" } }));
    const untrusted = load(false);
    expect(untrusted.settings.env).toEqual({ FROM_USER: "yes", SHARED: "user" });
    expect(untrusted.withheld).toContain("env");
    expect(trustGated(untrusted.layers)).toContain("env");
    const trusted = load(true).settings.env;
    expect(Object.keys(trusted).sort()).toEqual(["FROM_USER", "NODE_OPTIONS", "PATH", "SHARED"]);
    expect([trusted.SHARED, trusted.PATH, trusted.NODE_OPTIONS]).toEqual([
      "project",
      "./bin",
      "-r x",
    ]);
  });

  it("is not withheld when the project sets none", async () => {
    await userToml('[env]\nFROM_USER = "yes"\n');
    expect(load(false).withheld).not.toContain("env");
  });

  it("hides the values in origins and in what trust would apply", async () => {
    const user = await userToml('[env]\nTOKEN_ISH = "s3cret"\n');
    const project = await projectFile(".z-engine/settings.toml", '[env]\nPROJ = "p-value"\n');
    const loaded = load(false);
    const origins = settingOrigins(loaded).filter((o) => o.key.startsWith("env"));
    expect(origins).toEqual([
      { key: "env.TOKEN_ISH", value: "(hidden)", origin: { level: "user", file: user } },
    ]);
    expect(gatedProjectValues(loaded.layers)).toContainEqual({
      category: "env",
      files: [{ file: project, value: { PROJ: "(hidden)" } }],
    });
    const trusted = settingOrigins(load(true)).filter((o) => o.key.startsWith("env"));
    expect(trusted.map((o) => [o.key, o.value, o.origin.file])).toEqual([
      ["env.PROJ", "(hidden)", project],
      ["env.TOKEN_ISH", "(hidden)", user],
    ]);
    expect(JSON.stringify([trusted, gatedProjectValues(loaded.layers)])).not.toMatch(
      /s3cret|p-value/,
    );
  });
});

describe("Claude Code's env", () => {
  it("keeps strings, stringifies numbers and booleans, and names other values in its notice", async () => {
    const file = await projectFile(
      ".claude/settings.json",
      JSON.stringify({
        env: { S: "text", N: 3, F: 1.5, B: true, OFF: false, O: { a: 1 }, L: [1], Z: null },
        statusLine: { type: "command" },
      }),
    );
    const { settings, problems } = load(true);
    expect(settings.env).toEqual({ S: "text", N: "3", F: "1.5", B: "true", OFF: "false" });
    expect(problems).toEqual([
      {
        file,
        message: [
          "env.O: expected a string, number or boolean, skipped",
          "env.L: expected a string, number or boolean, skipped",
          "env.Z: expected a string, number or boolean, skipped",
          "keys zeng does not use: statusLine",
        ].join("; "),
      },
    ]);
  });

  it("no longer names env among the unused keys; a bad name is skipped alone", async () => {
    const file = await projectFile(
      ".claude/settings.json",
      JSON.stringify({ env: { OK: "1", "9LIVES": "x" } }),
    );
    const { settings, problems } = load(true);
    expect(settings.env).toEqual({ OK: "1" });
    expect(problems).toEqual([
      expect.objectContaining({
        file,
        key: "env.9LIVES",
        message: expect.stringMatching(/^invalid name/),
      }),
    ]);
  });

  it("reports an env that is not an object, and reads ~/.claude/settings.json's as the user's", async () => {
    const file = await projectFile(".claude/settings.json", JSON.stringify({ env: "A=1" }));
    await world.write(
      join(world.paths.home, ".claude/settings.json"),
      JSON.stringify({ env: { FROM_CLAUDE_USER: 7 } }),
    );
    const { settings, problems } = load(false);
    expect(settings.env).toEqual({ FROM_CLAUDE_USER: "7" });
    expect(problems).toEqual([{ file, message: "env: expected an object of variables, ignored" }]);
  });
});
