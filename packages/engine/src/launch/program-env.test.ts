import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createShell } from "@z-engine/host";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serverEntries } from "../mcp/specs.js";
import { childLaunch } from "./child-launch.js";
import { type EnvSettings, sessionChildEnv, withSettingsEnv } from "./program-env.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-program-env-")));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const base = { PATH: "/usr/bin:/bin", HOME: "/home/u", ONLY_BASE: "b" };

describe("sessionChildEnv", () => {
  it("layers [env] over the scrubbed environment, keeping its secret-looking names", () => {
    const env = sessionChildEnv(
      { ...base, OPENAI_API_KEY: "engine-key" },
      { env: { HOME: "/elsewhere", GITHUB_TOKEN: "mine" } },
    );
    expect(env.vars).toEqual({ ...base, HOME: "/elsewhere", GITHUB_TOKEN: "mine" });
  });

  it("drops project folders from PATH-like lists when told to exclude them", () => {
    const env = sessionChildEnv(base, { env: { PATH: `${dir}/bin:/opt/bin:rel` } }, [dir]);
    expect(env.vars.PATH).toBe("/opt/bin");
  });
});

describe("withSettingsEnv", () => {
  it("gives every command the settings' env as it is then, under the command's own", async () => {
    let settings: EnvSettings = { env: { PROBE: "one", KEEP: "k" } };
    const shell = withSettingsEnv(createShell({ baseEnv: base }), () => settings);
    const probe = 'printf %s "$PROBE|$KEEP|$ONLY_BASE"';
    expect((await shell.run({ command: probe, cwd: dir })).output).toBe("one|k|b");
    expect((await shell.run({ command: probe, cwd: dir, env: { PROBE: "own" } })).output).toBe(
      "own|k|b",
    );
    settings = { env: { PROBE: "two" } };
    const job = shell.spawnBackground({ command: 'printf %s "$PROBE|$KEEP"', cwd: dir });
    expect((await job.done).output).toBe("two|");
  });

  it("passes requests through unchanged when [env] is empty", async () => {
    const seen: unknown[] = [];
    const inner = createShell({ baseEnv: base });
    const shell = withSettingsEnv(
      {
        run: (request) => {
          seen.push(request);
          return inner.run(request);
        },
        spawnBackground: (request) => inner.spawnBackground(request),
      },
      () => ({ env: {} }),
    );
    const request = { command: "true", cwd: dir };
    await shell.run(request);
    expect(seen).toEqual([request]);
    expect(seen[0]).toBe(request);
  });
});

describe("a stdio MCP server's restart key", () => {
  it("changes with the settings' env, and a remote server's does not", () => {
    const ctx = { childEnv: base, paths: { dataDir: dir } };
    const servers = { local: { command: "srv" }, remote: { url: "https://example.com/mcp" } };
    const keys = (env: Record<string, string>) =>
      serverEntries(servers, { sources: {}, launch: childLaunch(ctx, dir, true, { env }) }).map(
        (e) => e.key,
      );
    const [localA, remoteA] = keys({ A: "1" });
    const [localB, remoteB] = keys({ A: "2" });
    expect(localA).not.toBe(localB);
    expect(remoteA).toBe(remoteB);
    expect(keys({ A: "1" })[0]).toBe(localA);
  });
});
