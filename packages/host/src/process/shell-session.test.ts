import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShell } from "./local-shell.js";
import { createShellSession } from "./shell-session.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-session-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const shell = createShell({ baseEnv: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });

describe("createShellSession", () => {
  it("keeps a cd for the next command and shows no marker", async () => {
    await mkdir(join(dir, "sub dir 'q'"));
    const session = createShellSession(shell, { cwd: dir });
    const first = await session.run({ command: `cd "sub dir 'q'" && echo moved` });
    expect(first.output).toBe("moved\n");
    expect(session.cwd).toBe(join(dir, "sub dir 'q'"));
    const second = await session.run({ command: "pwd" });
    expect(second.output).toBe(`${join(dir, "sub dir 'q'")}\n`);
  });

  it("keeps the command's own exit status, also after exit N, and still tracks the folder", async () => {
    await mkdir(join(dir, "a"));
    const session = createShellSession(shell, { cwd: dir });
    const result = await session.run({ command: "cd a; exit 3" });
    expect(result.exitCode).toBe(3);
    expect(session.cwd).toBe(join(dir, "a"));
    const failing = await session.run({ command: "false" });
    expect(failing.exitCode).toBe(1);
  });

  it("falls back to its first folder when its folder disappears", async () => {
    await mkdir(join(dir, "gone"));
    const session = createShellSession(shell, { cwd: dir });
    await session.run({ command: "cd gone" });
    expect(session.cwd).toBe(join(dir, "gone"));
    await rm(join(dir, "gone"), { recursive: true });
    const result = await session.run({ command: "pwd" });
    expect(result.output).toBe(`${dir}\n`);
    expect(session.cwd).toBe(dir);
  });

  it("stays put when the command is killed by a timeout", async () => {
    await mkdir(join(dir, "b"));
    const session = createShellSession(shell, { cwd: dir });
    const result = await session.run({ command: "cd b; sleep 30", timeoutMs: 200 });
    expect(result.timedOut).toBe(true);
    expect([dir, join(dir, "b")]).toContain(session.cwd);
    expect((await session.run({ command: "echo ok" })).output).toBe("ok\n");
  });
});
