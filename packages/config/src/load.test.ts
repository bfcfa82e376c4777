import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CATALOG_URL } from "./defaults.js";
import { loadSettings } from "./load.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const load = (env = world.env, trusted = true) =>
  loadSettings({ env, paths: world.paths, projectRoot: world.project, trusted });

describe("loadSettings: layers and merge", () => {
  it("gives the defaults when no file exists", () => {
    const { settings, layers, problems, withheld } = load();
    expect(layers).toEqual([]);
    expect(problems).toEqual([]);
    expect(withheld).toEqual([]);
    expect(settings.model).toEqual({
      main: "claude-sonnet-5-5",
      fast: "claude-sonnet-5-5",
      review: "claude-sonnet-5-5",
      fallbacks: [],
    });
    expect(settings.permissions.mode).toBe("ask");
    expect(settings.verification).toEqual({ mode: "auto", checks: [], max_continuations: 3 });
    expect(settings.context.compact_at_percent).toBe(80);
    expect(settings.agents.max_turns).toBe(200);
    expect(settings.shell.sandbox.enabled).toBe(false);
    expect(settings.catalog.source).toBe(DEFAULT_CATALOG_URL);
  });

  it("lets higher layers win single values and combines lists as the spec says", async () => {
    await world.write(
      "config/settings.toml",
      `[model]
main = "user-model"
fast = "user-fast"
[permissions]
allow = ["Bash(ls)"]
deny = ["Read(~/.ssh/**)"]
[[hooks.PreToolUse]]
command = "user-hook"
[[verification.checks]]
id = "npm:test"
kind = "test"
command = "npm test"
[mcp.servers.github]
command = "gh-mcp"
[mcp.servers.keep]
url = "https://example.com/mcp"
`,
    );
    await world.write(
      "project/.z-engine/settings.toml",
      `[model]
main = "project-model"
[permissions]
allow = ["Bash(npm test:*)"]
additional_directories = ["../shared", "~/notes"]
[[hooks.PreToolUse]]
matcher = "Bash"
command = "project-hook"
timeout_secs = 5
[[verification.checks]]
id = "npm:test"
kind = "test"
command = "npm run test:ci"
[[verification.checks]]
id = "lint"
kind = "lint"
command = "npm run lint"
cwd = "web"
[mcp.servers.github]
url = "https://gh.example.com/mcp"
`,
    );
    await world.write(
      "project/.z-engine/settings.local.toml",
      `[permissions]
ask = ["Bash(git push:*)"]
mode = "acceptEdits"
`,
    );
    const { settings, layers, problems } = load({ ...world.env, ZENGINE_MODEL: "env-model" });
    expect(problems).toEqual([]);
    expect(layers.map((l) => l.level)).toEqual(["user", "project", "local", "env"]);
    expect(settings.model).toMatchObject({
      main: "env-model",
      fast: "user-fast",
      review: "env-model",
    });
    expect(settings.permissions.mode).toBe("acceptEdits");
    expect(settings.permissions.allow.map((r) => [r.rule, r.origin.level])).toEqual([
      ["Bash(ls)", "user"],
      ["Bash(npm test:*)", "project"],
    ]);
    expect(settings.permissions.allow[1]?.origin).toEqual({
      level: "project",
      file: join(world.project, ".z-engine", "settings.toml"),
      root: world.project,
    });
    expect(settings.permissions.allow[0]?.origin.root).toBe(world.paths.configDir);
    expect(settings.permissions.deny.map((r) => r.rule)).toEqual(["Read(~/.ssh/**)"]);
    expect(settings.permissions.ask.map((r) => r.rule)).toEqual(["Bash(git push:*)"]);
    expect(settings.permissions.additional_directories).toEqual([
      join(world.base, "shared"),
      join(world.base, "home", "notes"),
    ]);
    expect(settings.hooks.PreToolUse.map((h) => h.command)).toEqual(["user-hook", "project-hook"]);
    expect(settings.hooks.PreToolUse[1]).toMatchObject({ matcher: "Bash", timeout_secs: 5 });
    expect(settings.verification.checks).toEqual([
      { id: "npm:test", kind: "test", command: "npm run test:ci", cwd: ".", source: "configured" },
      { id: "lint", kind: "lint", command: "npm run lint", cwd: "web", source: "configured" },
    ]);
    expect(settings.mcp.servers).toEqual({
      github: { url: "https://gh.example.com/mcp" },
      keep: { url: "https://example.com/mcp" },
    });
  });

  it("applies the environment overrides above every file", async () => {
    await world.write(
      "project/.z-engine/settings.toml",
      `[provider]\nkind = "anthropic"\nbase_url = "https://api.anthropic.com"\n[shell]\nprogram = "/bin/zsh"\n`,
    );
    const env = {
      ...world.env,
      ZENGINE_PROVIDER: "openai",
      ZENGINE_BASE_URL: "http://127.0.0.1:9999/v1",
      ZENGINE_SHELL: "/bin/bash",
      ZENGINE_MODEL: "",
    };
    const { settings, problems } = load(env);
    expect(problems).toEqual([]);
    expect(settings.provider).toEqual({
      kind: "openai",
      base_url: "http://127.0.0.1:9999/v1",
      headers: {},
    });
    expect(settings.shell.program).toBe("/bin/bash");
    expect(settings.model.main).toBe("claude-sonnet-5-5");
  });

  it("reads every section the spec names", async () => {
    await world.write(
      "config/settings.toml",
      `[model]
effort = "high"
fallbacks = ["a", "b"]
review = "r"
[provider]
headers = { "x-team" = "1" }
[lsp]
enabled = false
[lsp.servers.zls]
command = "zls"
extensions = ["zig"]
env = { ZLS_LOG = "1" }
initialization_options = { enable_snippets = false }
[verification]
mode = "strict"
auto_checks = ["npm:test"]
max_continuations = 5
[context]
compact_at_percent = 70
[agents]
max_turns = 50
session_cost_cap_usd = 2.5
[shell.sandbox]
enabled = true
allow_network = false
auto_allow = true
extra_writable = ["/var/cache/x"]
[web]
search_url = "http://127.0.0.1:8080/search"
[decisions]
timeout_ms = 400
[experimental]
decisions_route = "shadow"
[pricing."my-model"]
input = 1.5
output = 6
cache_read = 0.15
[appearance]
theme = "dark"
[catalog]
source = "off"
`,
    );
    const { settings, problems } = load();
    expect(problems).toEqual([]);
    expect(settings.model).toMatchObject({ effort: "high", fallbacks: ["a", "b"], review: "r" });
    expect(settings.provider.headers).toEqual({ "x-team": "1" });
    expect(settings.lsp).toEqual({
      enabled: false,
      servers: {
        zls: {
          command: "zls",
          extensions: ["zig"],
          env: { ZLS_LOG: "1" },
          initialization_options: { enable_snippets: false },
        },
      },
    });
    expect(settings.verification).toMatchObject({
      mode: "strict",
      auto_checks: ["npm:test"],
      max_continuations: 5,
    });
    expect(settings.context.compact_at_percent).toBe(70);
    expect(settings.agents).toEqual({
      max_turns: 50,
      session_cost_cap_usd: 2.5,
      max_concurrent: 10,
      max_depth: 2,
    });
    expect(settings.shell.sandbox).toEqual({
      enabled: true,
      allow_network: false,
      auto_allow: true,
      extra_writable: ["/var/cache/x"],
    });
    expect(settings.web.search_url).toBe("http://127.0.0.1:8080/search");
    expect(settings.decisions.timeout_ms).toBe(400);
    expect(settings.experimental).toEqual({ decisions_route: "shadow" });
    expect(settings.pricing["my-model"]).toEqual({ input: 1.5, output: 6, cache_read: 0.15 });
    expect(settings.appearance.theme).toBe("dark");
    expect(settings.catalog.source).toBe("off");
  });

  it("joins the servers of .mcp.json to the project layer, below settings.toml", async () => {
    await world.write(
      "project/.mcp.json",
      JSON.stringify({
        mcpServers: {
          files: { command: "npx", args: ["server-filesystem", "."], env: { A: "1" } },
          remote: {
            type: "http",
            url: "https://mcp.example.com/mcp",
            headers: { Authorization: "x" },
          },
          both: { command: "one" },
        },
      }),
    );
    await world.write("project/.z-engine/settings.toml", `[mcp.servers.both]\ncommand = "two"\n`);
    const { settings, layers, problems } = load();
    expect(problems).toEqual([]);
    expect(layers.map((l) => [l.level, l.file])).toEqual([
      ["project", join(world.project, ".mcp.json")],
      ["project", join(world.project, ".z-engine", "settings.toml")],
    ]);
    expect(settings.mcp.servers).toEqual({
      files: { command: "npx", args: ["server-filesystem", "."], env: { A: "1" } },
      remote: { url: "https://mcp.example.com/mcp", headers: { Authorization: "x" } },
      both: { command: "two" },
    });
  });

  it("does not let a caller's mutation of the result reach the next load", async () => {
    await world.write("config/settings.toml", `[model]\nfallbacks = ["a"]\n`);
    const first = load();
    first.settings.model.fallbacks.push("mutated");
    first.settings.permissions.additional_directories.push("/x");
    expect(load().settings.model.fallbacks).toEqual(["a"]);
    expect(load().settings.permissions.additional_directories).toEqual([]);
  });
});

describe("loadSettings: a host's settings object", () => {
  it("layers above the user file and below the project, and reports bad keys as problems", async () => {
    await world.write("config/settings.toml", `[model]\nmain = "user-model"\nfast = "user-fast"\n`);
    await world.write("project/.z-engine/settings.toml", `[model]\nfast = "project-fast"\n`);
    const loaded = loadSettings({
      env: world.env,
      paths: world.paths,
      projectRoot: world.project,
      trusted: true,
      hostSettings: { model: { main: "host-model" }, nonsense: { a: 1 } },
    });
    expect(loaded.settings.model.main).toBe("host-model");
    expect(loaded.settings.model.fast).toBe("project-fast");
    expect(loaded.problems).toEqual([
      expect.objectContaining({ file: "host settings", key: "nonsense" }),
    ]);
  });

  it("keeps a host's settings in an untrusted project (they are user-level)", () => {
    const loaded = loadSettings({
      env: world.env,
      paths: world.paths,
      projectRoot: world.project,
      trusted: false,
      hostSettings: { verification: { mode: "auto" } },
    });
    expect(loaded.settings.verification.mode).toBe("auto");
  });
});
