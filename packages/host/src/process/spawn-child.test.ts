import { mkdtemp, readFile, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { processAlive, waitForProcessExit } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { childEnvironment } from "./child-env.js";
import { checkChildFolder, neutralFolder } from "./child-folder.js";
import { signalGroup, spawnChild } from "./spawn-child.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-door-")));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("childEnvironment", () => {
  const base = {
    PATH: "node_modules/.bin:/usr/bin::/proj/bin:/proj-other/bin:.",
    PYTHONPATH: "/proj/lib:/opt/py",
    NODE_PATH: "/proj/node_modules",
    HOME: "/home/u",
    PWD: "/proj",
    ZENGINE_API_KEY: "sk-1",
    GITHUB_TOKEN: "ghp",
    ANTHROPIC_AUTH_TOKEN: "t",
  };

  it("drops every secret unless allowed, and PWD", () => {
    expect(childEnvironment(base, { allow: ["GITHUB_TOKEN"] }).vars).toEqual({
      PATH: base.PATH,
      PYTHONPATH: base.PYTHONPATH,
      NODE_PATH: base.NODE_PATH,
      HOME: "/home/u",
      GITHUB_TOKEN: "ghp",
    });
  });

  it("with a folder to exclude, takes it and every relative entry out of PATH-like lists", () => {
    const vars = childEnvironment(base, { exclude: ["/proj"] }).vars;
    expect(vars.PATH).toBe("/usr/bin:/proj-other/bin");
    expect(vars.PYTHONPATH).toBe("/opt/py");
    expect(vars.NODE_PATH).toBe("");
    expect(vars.HOME).toBe("/home/u");
  });
});

describe("neutralFolder", () => {
  it("is an empty 0700 folder of the engine's, or / when the project holds it", async () => {
    const folder = neutralFolder(join(dir, "data"), ["/elsewhere"]);
    expect(folder).toEqual({ path: join(dir, "data/neutral"), reason: "neutral" });
    expect((await stat(folder.path)).mode & 0o777).toBe(0o700);
    expect(neutralFolder(join(dir, "data"), [dir]).path).toBe("/");
  });

  it("is the only neutral folder a child may start in", () => {
    expect(() => checkChildFolder({ path: dir, reason: "neutral" })).toThrow(
      /not a neutral folder/,
    );
    expect(() => checkChildFolder({ path: "relative", reason: "engine" })).toThrow(/absolute/);
    expect(() => checkChildFolder(neutralFolder(join(dir, "d")))).not.toThrow();
  });
});

describe("spawnChild", () => {
  it("starts from the scrubbed environment plus the caller's variables, with PWD its folder", async () => {
    const out = join(dir, "env");
    const child = spawnChild({
      program: "sh",
      args: ["-c", `env > ${out}; pwd >> ${out}`],
      folder: { path: dir, reason: "engine" },
      env: childEnvironment({ PATH: process.env.PATH, ZENGINE_API_KEY: "sk-secret", PWD: "/x" }),
      extraEnv: { OWN: "mine" },
    });
    await new Promise((resolve) => child.on("close", resolve));
    const text = await readFile(out, "utf8");
    expect(text).not.toContain("sk-secret");
    expect(text).toContain("OWN=mine");
    expect(text).toContain(`PWD=${dir}\n`);
    expect(text.trim().split("\n").at(-1)).toBe(dir);
  });

  it("makes the child a group leader, so signalGroup reaches what it started", async () => {
    const child = spawnChild({
      program: "sh",
      args: ["-c", "sleep 1000 & echo $!; wait"],
      folder: { path: dir, reason: "engine" },
      env: childEnvironment({ PATH: process.env.PATH }),
    });
    const pid = await new Promise<number>((resolve) =>
      child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    expect(await processAlive(pid)).toBe(true);
    expect(signalGroup(child.pid, "SIGKILL")).toBe(true);
    expect(await waitForProcessExit(pid)).toBe(true);
  });
});
