import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, resultsOf, withTempDir } from "../harness.js";
import { logLines, serverState, testServerToml } from "../mcp-support.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Prints the three variables, `|` between (an unset one is empty). */
const PROBE = 'printf %s "$ZENG_PROBE|$N|$FROM_USER"';

/** The user's settings: Bash allowed, a variable of their own, and a hook writing what it saw. */
const userSettings = (dir: string) =>
  [
    "[permissions]",
    'allow = ["Bash", "Verify"]',
    "[env]",
    'FROM_USER = "from-user"',
    "[[hooks.PreToolUse]]",
    'matcher = "Bash"',
    `command = ${JSON.stringify(`${PROBE} > ${join(dir, "user-hook")}`)}`,
  ].join("\n");

/** A project's `.claude/settings.json` setting env (a number among it) and a hook of its own. */
const claudeSettings = (dir: string) =>
  JSON.stringify({
    env: { ZENG_PROBE: "from-settings", N: 3 },
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: `${PROBE} > ${join(dir, "project-hook")}` }],
        },
      ],
    },
  });

/** A configured check that passes only when it sees every variable (Verify runs it in the session's shell). */
const PROBE_CHECK = [
  "[[verification.checks]]",
  'id = "probe"',
  'kind = "test"',
  `command = ${JSON.stringify('[ "$ZENG_PROBE $N $FROM_USER" = "from-settings 3 from-user" ]')}`,
].join("\n");

const read = (dir: string, name: string) => readFile(join(dir, name), "utf8").catch(() => "");
const resultText = (x: Harness, request: number) =>
  JSON.stringify(resultsOf(x, request).map((r) => r.content));

async function session(dir: string, trusted: boolean): Promise<Harness> {
  h = await harness({
    files: {
      ".claude/settings.json": claudeSettings(dir),
      ".z-engine/settings.toml": PROBE_CHECK,
    },
    script: [],
    userSettings: userSettings(dir),
    engine: { headless: true },
    trusted,
  });
  return h;
}

describe("settings env", () => {
  it("reaches Bash, hooks, checks and `!command` of a trusted project, never the engine's own process", async () => {
    await withTempDir(async (dir) => {
      const x = await session(dir, true);
      x.model.push(
        reply.toolCall("Bash", { command: PROBE }),
        reply.toolCall("Verify", { checks: ["probe"] }),
        reply.text("done"),
      );
      await x.session.run("probe");
      expect(resultText(x, 1)).toContain("from-settings|3|from-user");
      expect(await read(dir, "project-hook")).toBe("from-settings|3|from-user");
      expect(await read(dir, "user-hook")).toBe("from-settings|3|from-user");
      expect(x.recorder.ofType("checkRecorded").map((e) => e.record.passed)).toEqual([true]);
      expect(x.recorder.ofType("toolFinished").map((f) => [f.toolName, f.status])).toEqual([
        ["Bash", "ok"],
        ["Verify", "ok"],
      ]);
      // The user's own `!command` (`/bash`) runs in the same shell.
      const typed = await x.session.command("bash", PROBE);
      expect(typed).toMatchObject({ type: "output" });
      expect(JSON.stringify(typed)).toContain("from-settings|3|from-user");
      expect(process.env.ZENG_PROBE).toBeUndefined();
    });
  }, 30_000);

  it("in an untrusted project gives only the user's env, until the project is trusted", async () => {
    await withTempDir(async (dir) => {
      const x = await session(dir, false);
      expect(x.recorder.ofType("trustRequired")[0]?.withheld).toContain("env");
      x.model.push(reply.toolCall("Bash", { command: PROBE }), reply.text("done"));
      await x.session.run("probe");
      expect(resultText(x, 1)).toContain("||from-user");
      expect(await read(dir, "user-hook")).toBe("||from-user");
      expect(await read(dir, "project-hook")).toBe("");

      // Trust reloads the settings: the next command of the same session gets the project's env.
      x.session.send({ type: "trustWorkspace", trusted: true });
      await x.session.idle();
      x.model.push(reply.toolCall("Bash", { command: PROBE }), reply.text("done"));
      await x.session.run("probe again");
      expect(resultText(x, 3)).toContain("from-settings|3|from-user");
      expect(await read(dir, "project-hook")).toBe("from-settings|3|from-user");
    });
  }, 30_000);

  it("reaches a stdio MCP server the user configured", async () => {
    await withTempDir(async (dir) => {
      const log = join(dir, "mcp-log");
      h = await harness({
        files: {},
        script: [],
        userSettings: `[env]\nMCP_TEST_LOG = ${JSON.stringify(log)}\n${testServerToml("probe")}`,
        engine: { headless: true },
      });
      await serverState(h, "probe", "ready");
      expect(logLines(log)[0]).toMatch(/^started \d+$/);
    });
  }, 30_000);
});
