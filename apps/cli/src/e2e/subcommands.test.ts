import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "./cli.test.helpers.js";

let w: World | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
});

describe("zeng login", () => {
  it("stores the key from stdin in auth.json (0600) for the provider's host; -p then uses it", async () => {
    w = await world({ format: "anthropic", apiKey: "stored-key" });
    const login = w.spawn(["login"], { ZENGINE_API_KEY: undefined });
    login.child.stdin?.end("stored-key\n");
    const run = await login.done;
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const file = join(resolvePaths(w.env).dataDir, "auth.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const host = new URL(w.env.ZENGINE_BASE_URL as string).host;
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ [host]: { apiKey: "stored-key" } });
    w.provider.push(main(reply.text("authorised")));
    const asked = await w.run(["-p", "hi"], { ZENGINE_API_KEY: undefined });
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain("authorised");
  });

  it("exits 2 with the reason when stdin holds no key", async () => {
    w = await world({ format: "anthropic" });
    const login = w.spawn(["login"]);
    login.child.stdin?.end("\n");
    const run = await login.done;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no API key on stdin");
  });
});

describe("zeng mcp add|remove", () => {
  it("writes each scope's file with Claude Code's flags, and removes again", async () => {
    w = await world({ format: "anthropic" });
    const root = w.repo.root;
    const local = await w.run([
      "mcp",
      "add",
      "-e",
      "TOKEN=abc",
      "files",
      "npx",
      "-y",
      "srv",
      "/tmp",
    ]);
    expect(local.stderr).toBe("");
    expect(local.code).toBe(0);
    const toml = await readFile(join(root, ".z-engine", "settings.local.toml"), "utf8");
    expect(toml).toContain("[mcp.servers.files]");
    expect(toml).toContain('args = [ "-y", "srv", "/tmp" ]');
    expect(toml).toContain('TOKEN = "abc"');
    const project = await w.run([
      "mcp",
      "add",
      "--scope",
      "project",
      "-t",
      "http",
      "-H",
      "Authorization: Bearer x",
      "remote",
      "https://example.test/mcp",
    ]);
    expect(project.code).toBe(0);
    expect(JSON.parse(await readFile(join(root, ".mcp.json"), "utf8"))).toEqual({
      mcpServers: {
        remote: { url: "https://example.test/mcp", headers: { Authorization: "Bearer x" } },
      },
    });
    const user = await w.run(["mcp", "add", "-s", "user", "mine", "node", "server.js"]);
    expect(user.code).toBe(0);
    const userToml = await readFile(resolvePaths(w.env).userSettingsFile, "utf8");
    expect(userToml).toContain('source = "off"');
    expect(userToml).toMatch(/mine/);
    expect(userToml).toContain("server.js");
    const got = await w.run(["mcp", "get", "mine"]);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({
      name: "mine",
      command: "node",
      args: ["server.js"],
    });
    const unknown = await w.run(["mcp", "get", "nobody"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no server "nobody"');
    const removed = await w.run(["mcp", "remove", "-s", "project", "remote"]);
    expect(removed.code).toBe(0);
    expect(JSON.parse(await readFile(join(root, ".mcp.json"), "utf8"))).toEqual({ mcpServers: {} });
    const missing = await w.run(["mcp", "remove", "remote", "-s", "project"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no server "remote"');
    const bad = await w.run(["mcp", "add", "-s", "global", "x", "y"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--scope must be one of local, project, user");
  });
});

describe("zeng config get|set|list", () => {
  it("sets a project key and reads it back; a value the settings reject is put back", async () => {
    w = await world({ format: "anthropic" });
    await w.run(["trust"]);
    const set = await w.run(["config", "set", "model.main", "claude-test-model"]);
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    expect(await readFile(join(w.repo.root, ".z-engine", "settings.toml"), "utf8")).toContain(
      'main = "claude-test-model"',
    );
    const got = await w.run(["config", "get", "model.main"]);
    expect(got.stdout).toBe("claude-test-model\n");
    const global = await w.run(["config", "set", "-g", "agents.max_turns", "12"]);
    expect(global.code).toBe(0);
    expect((await w.run(["config", "get", "agents.max_turns"])).stdout).toBe("12\n");
    const rejected = await w.run(["config", "set", "agents.max_turns", '"many"']);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain("(not set)");
    expect((await w.run(["config", "get", "agents.max_turns"])).stdout).toBe("12\n");
    const list = await w.run(["config", "list"]);
    expect(JSON.parse(list.stdout)).toMatchObject({ model: { main: "claude-test-model" } });
  });
});

describe("zeng web", () => {
  it("runs the web UI's bin with the arguments given and exits with its code", async () => {
    w = await world({ format: "anthropic" });
    const help = await w.run(["web", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stderr).toContain("usage: zeng-web");
    const bad = await w.run(["web", "--port", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--port needs a number");
    const missing = await w.run(["web"], { ZENGINE_WEB_BIN: join(w.home, "absent.js") });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("the web UI is not installed");
  });
});

describe("zeng doctor", () => {
  it("reports the key, the provider answering, git, trust and a settings problem; exit 0 without a failure", async () => {
    w = await world({ format: "anthropic", userSettings: '[agents]\nmax_turns = "many"\n' });
    const run = await w.run(["doctor"]);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^ok +key: a key for .* from ZENGINE_API_KEY$/m);
    expect(run.stdout).toMatch(/^ok +provider: .* answered \(HTTP \d+\)$/m);
    expect(run.stdout).toMatch(/^ok +git: git runs; the folder is a git repository$/m);
    expect(run.stdout).toMatch(/^warn +trust: .* is not trusted/m);
    expect(run.stdout).toMatch(/^warn +settings: .*agents\.max_turns/m);
    expect(run.code).toBe(0);
    const keyless = await w.run(["doctor"], { ZENGINE_API_KEY: undefined });
    expect(keyless.stdout).toMatch(/^FAIL +key: no key for/m);
    expect(keyless.code).toBe(1);
  });
});

describe("zeng doctor usage", () => {
  it("exits 2 for a stray word", async () => {
    w = await world({ format: "anthropic" });
    const run = await w.run(["doctor", "now"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('doctor takes only --cwd DIR (got "now")');
  });
});
