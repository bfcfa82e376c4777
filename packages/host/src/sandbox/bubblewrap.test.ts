import { createServer } from "node:net";
import type { AddressInfo, Server } from "node:net";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  symlink,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FixtureRepo, createFixtureRepo } from "@z-engine/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createShell } from "../process/local-shell.js";
import type { Shell } from "../shell.js";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { buildSandboxProfile } from "./profile.js";

const baseEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const backend = new BubblewrapSandbox();
let server: Server;
let port: number;
let scratch: string;
let repo: FixtureRepo;
let inside: Shell;

beforeAll(async () => {
  server = createServer((socket) => socket.end("hello\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  backend.dispose();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "zeng-sandbox-")));
  await mkdir(join(scratch, "tmp"));
  await mkdir(join(scratch, "home"));
  await mkdir(join(scratch, "outside"));
  repo = await createFixtureRepo({ files: { "src/a.txt": "a" } });
  // The profile's temporary folder is a private one, so the real /tmp (and `outside`) stay read-only.
  const profile = buildSandboxProfile({
    root: repo.root,
    homeDir: join(scratch, "home"),
    tmpDir: join(scratch, "tmp"),
    allowNetwork: false,
  });
  inside = createShell({ baseEnv, sandbox: { backend, profile } });
});
afterEach(async () => {
  await repo.dispose();
  await rm(scratch, { recursive: true, force: true });
});

/** Live (not zombie) processes whose command line is exactly `cmdline`. */
async function processesRunning(cmdline: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const line = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    if (line === cmdline && !stat.includes(") Z ")) found.push(pid);
  }
  return found;
}

// The escape table (each way out, as root and as an unprivileged user) is in escapes.test.ts.

describe("BubblewrapSandbox", () => {
  it("lets a command build inside its root and the temporary folder", async () => {
    const result = await inside.run({
      command: `mkdir -p out && echo built > out/app.js && echo t > ${join(scratch, "tmp", "t")} && cat src/a.txt`,
      cwd: repo.root,
    });
    expect(result.output).toBe("a");
    expect(result.exitCode).toBe(0);
    expect(await repo.read("out/app.js")).toBe("built\n");
  });

  it("leaves no placeholder behind for protected paths that did not exist", async () => {
    await inside.run({ command: "true", cwd: repo.root });
    for (const path of [".mcp.json", ".z-engine", ".claude"]) {
      await expect(lstat(repo.path(path))).rejects.toThrow();
    }
  });

  it("keeps protected files that exist readable but not writable", async () => {
    await repo.write(".z-engine/settings.toml", "model = 'a'\n");
    const result = await inside.run({
      command: "cat .z-engine/settings.toml; echo \"model = 'b'\" > .z-engine/settings.toml",
      cwd: repo.root,
    });
    expect(result.output).toContain("model = 'a'");
    expect(result.exitCode).not.toBe(0);
    expect(await repo.read(".z-engine/settings.toml")).toBe("model = 'a'\n");
  });

  it("keeps placeholders in place while concurrent commands still run", async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => inside.run({ command: "echo '{}' > .mcp.json", cwd: repo.root })),
    );
    expect(results.every((r) => r.exitCode !== 0)).toBe(true);
    await expect(lstat(repo.path(".mcp.json"))).rejects.toThrow();
  });

  it("kills everything inside when the command is cancelled", async () => {
    const controller = new AbortController();
    const result = await inside.run({
      command: "sleep 987 & echo started; wait",
      cwd: repo.root,
      signal: controller.signal,
      onOutput: (text) => {
        if (text.includes("started")) controller.abort();
      },
    });
    expect(result.cancelled).toBe(true);
    expect(await processesRunning("sleep\u0000987\u0000")).toEqual([]);
  });

  it("says plainly that git cannot write .git inside, when a commit fails there", async () => {
    const result = await inside.run({
      command: "git -c user.name=a -c user.email=a@b commit -q --allow-empty -m x",
      cwd: repo.root,
    });
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("Read-only file system");
    expect(result.output).toContain("[sandbox: .git is read-only inside the sandbox");
  });

  it("refuses to run when a protected path is a symbolic link (it could be replaced)", async () => {
    await rename(repo.path(".git"), repo.path("real-git"));
    await symlink(repo.path("real-git"), repo.path(".git"));
    const result = await inside.run({ command: "true", cwd: repo.root });
    expect(result.exitCode).toBeNull();
    expect(result.error).toMatch(/protected path .*\.git is a symbolic link/);
  });

  it("lets a network-on profile reach the loopback server", async () => {
    const profile = buildSandboxProfile({
      root: repo.root,
      homeDir: join(scratch, "home"),
      tmpDir: join(scratch, "tmp"),
      allowNetwork: true,
    });
    const online = createShell({ baseEnv, sandbox: { backend, profile } });
    const result = await online.run({
      command: `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`,
      cwd: repo.root,
    });
    expect(result.output).toBe("hello\n");
    expect(await readFile(repo.path("src/a.txt"), "utf8")).toBe("a");
  });
});
