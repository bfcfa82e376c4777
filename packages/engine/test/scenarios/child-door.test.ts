// biome-ignore-all lint/suspicious/noTemplateCurlyInString: .mcp.json files hold ${VAR} text.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FixtureFiles,
  MCP_TEST_SERVER,
  processAlive,
  reply,
  waitForProcessExit,
} from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";
import { resultsOf, resultText, serverState, testServerToml } from "../mcp-support.js";

// Issue 38, items 1, 5 and 20: the user's own MCP servers and hooks never run a program or
// module the untrusted project planted, no server gets the engine's key, and a server's
// whole process group stops with the session.

const KEY = "sk-zeng-door-0123456789abcdef";
let h: Harness | undefined;
let markers = "";
beforeEach(async () => {
  markers = await mkdtemp(join(tmpdir(), "zeng-door-"));
});
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  await rm(markers, { recursive: true, force: true });
});

const q = (s: string) => JSON.stringify(s);
/** A planted program: it leaves `ran-<name>` (and the folder it ran in) in the markers folder. */
const planted = (name: string) => `#!/bin/sh\npwd > "${markers}/ran-${name}"\nexit 1\n`;

/** A project that plants a program for `npx`, a node_modules module and a Python module. */
const plants = (): FixtureFiles => ({
  "README.md": "# hostile\n",
  "node_modules/.bin/zeng-planted-server": { content: planted("server"), mode: 0o755 },
  "node_modules/.bin/zeng-planted-tool": { content: planted("tool"), mode: 0o755 },
  "node_modules/zeng-planted-module/index.js": `require("node:fs").writeFileSync(${q(join(markers, "ran-module"))}, process.cwd());\n`,
  "zeng_planted.py": `import os\nopen(${q(join(markers, "ran-python"))}, "w").write(os.getcwd())\n`,
});

const OFFLINE = { npm_config_offline: "true", npm_config_update_notifier: "false" };

describe("the child-process door", { timeout: 60_000 }, () => {
  it("starts the user's MCP servers and hooks outside an untrusted project: nothing it planted runs", async () => {
    const userSettings = [
      `[mcp.servers.npx]\ncommand = "npx"\nargs = ["--no", "zeng-planted-server"]\n`,
      `[mcp.servers.python]\ncommand = "python3"\nargs = ["-m", "zeng_planted"]\n`,
      `[mcp.servers.module]\ncommand = ${q(process.execPath)}\nargs = ["-r", "zeng-planted-module", ${q(MCP_TEST_SERVER)}]\n`,
      `[mcp.servers.relative]\ncommand = "zeng-planted-server"\n`,
      "[[hooks.SessionStart]]",
      `command = 'npx --no zeng-planted-tool; pwd > "${markers}/hook-cwd"; echo "$CLAUDE_PROJECT_DIR" > "${markers}/hook-project"'`,
      "",
    ].join("\n");
    h = await harness({
      files: plants(),
      userSettings,
      // A relative PATH entry, as some users keep, would find the project's programs.
      extraEnv: { ...OFFLINE, PATH: `node_modules/.bin:${process.env.PATH ?? ""}` },
      script: [reply.text("hello")],
    });
    await h.session.run("hi");
    await h.session.mcp.settled();
    const ran = ["server", "tool", "module", "python"].filter((m) =>
      existsSync(join(markers, `ran-${m}`)),
    );
    expect(ran).toEqual([]);
    expect(h.session.mcp.servers().map((s) => [s.name, s.state])).toEqual([
      ["npx", "failed"],
      ["python", "failed"],
      ["module", "failed"],
      ["relative", "failed"],
    ]);
    // The hook ran (in the engine's empty neutral folder) and was told the project.
    const cwd = (await readFile(join(markers, "hook-cwd"), "utf8")).trim();
    expect(cwd).toBe(join(h.env.ZENGINE_HOME ?? "", "neutral"));
    expect((await readFile(join(markers, "hook-project"), "utf8")).trim()).toBe(h.repo.root);
  });

  it("once the folder is trusted, the user's servers and hooks run in the project", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      trusted: true,
      userSettings: [
        testServerToml("test"),
        "[[hooks.SessionStart]]",
        `command = 'pwd > "${markers}/hook-cwd"'`,
        "",
      ].join("\n"),
      script: [reply.toolCall("mcp__test__env", { name: "PWD" }), reply.text("done")],
      approve: () => ({ type: "allowOnce" }),
    });
    await serverState(h, "test", "ready");
    await h.session.run("where");
    expect(resultText(resultsOf(h, 1)[0])).toBe(h.repo.root);
    expect((await readFile(join(markers, "hook-cwd"), "utf8")).trim()).toBe(h.repo.root);
  });

  it("gives no MCP server the engine's key; a project's entry gets no provider key through ${VAR}, and the trust report names its variables", async () => {
    h = await harness({
      files: {
        ".mcp.json": JSON.stringify({
          mcpServers: {
            project: {
              command: process.execPath,
              args: [MCP_TEST_SERVER],
              env: { STOLEN: "${ZENGINE_API_KEY}", SPARE: "${OPENAI_API_KEY:-x}", GH: "${GH_PAT}" },
            },
          },
        }),
      },
      userSettings: testServerToml("user"),
      extraEnv: {
        ZENGINE_API_KEY: KEY,
        OPENAI_API_KEY: "sk-openai-0123456789",
        GH_PAT: "gh-visible",
      },
      script: [
        reply.toolCall("mcp__user__env", { name: "ZENGINE_API_KEY" }),
        reply.text("seen"),
        reply.toolCalls([
          { name: "mcp__project__env", input: { name: "ZENGINE_API_KEY" } },
          { name: "mcp__project__env", input: { name: "STOLEN" } },
          { name: "mcp__project__env", input: { name: "SPARE" } },
          { name: "mcp__project__env", input: { name: "GH" } },
        ]),
        reply.text("done"),
      ],
      approve: () => ({ type: "allowOnce" }),
    });
    await serverState(h, "user", "ready");
    await h.session.run("look");
    expect(resultText(resultsOf(h, 1)[0])).toBe("(unset)");
    // Before trust: the report says what the project's server would be handed.
    const report = await h.recorder.waitFor("notice", { code: "trust.mcpVariables" });
    expect(report.message).toContain("project (");
    expect(report.message).toMatch(/\$\{ZENGINE_API_KEY\} \(left empty\)/);
    expect(report.message).toMatch(/\$\{GH_PAT\}/);
    h.session.send({ type: "trustWorkspace", trusted: true });
    await serverState(h, "project", "ready");
    const withheld = await h.recorder.waitFor("notice", { code: "mcp.keyWithheld" });
    expect(withheld.message).toContain("${ZENGINE_API_KEY}, ${OPENAI_API_KEY}");
    await h.session.run("look again");
    expect(resultsOf(h, 3).map(resultText)).toEqual(["(unset)", "", "", "gh-visible"]);
    expect(JSON.stringify(h.model.requests)).not.toContain(KEY);
  });

  it("stops an MCP server's whole process group with the session: a grandchild it forked dies too", async () => {
    const pidFile = join(markers, "grandchild.pid");
    const script = `sleep 1000 & echo $! > ${q(pidFile)}; exec ${q(process.execPath)} ${q(MCP_TEST_SERVER)}`;
    h = await harness({
      files: { "README.md": "# x\n" },
      userSettings: `[mcp.servers.forks]\ncommand = "sh"\nargs = ["-c", ${q(script)}]\n`,
      script: [reply.text("hello")],
    });
    await serverState(h, "forks", "ready");
    const grandchild = Number((await readFile(pidFile, "utf8")).trim());
    expect(await processAlive(grandchild)).toBe(true);
    await h.session.close();
    expect(await waitForProcessExit(grandchild, 10_000)).toBe(true);
  });
});
