import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitForProcessExit } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FailingArtifacts, MemoryArtifacts } from "../test-support/memory-artifacts.js";
import { createShell } from "./local-shell.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "zeng-shell-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() };

describe("createShell().run", () => {
  it("runs a command and returns stdout and stderr interleaved with the exit code", async () => {
    const shell = createShell({ baseEnv: env });
    const result = await shell.run({ command: "echo out; echo err >&2; exit 4", cwd: dir });
    expect(result.exitCode).toBe(4);
    expect(result.output).toContain("out\n");
    expect(result.output).toContain("err\n");
    expect(result.truncated).toBe(false);
    expect(result.timedOut).toBe(false);
    expect(result.cancelled).toBe(false);
  });

  it("streams output as it arrives and the chunks add up to the result", async () => {
    const shell = createShell({ baseEnv: env });
    const chunks: string[] = [];
    const result = await shell.run({
      command: "for i in 1 2 3; do echo line$i; done",
      cwd: dir,
      onOutput: (text) => chunks.push(text),
    });
    expect(chunks.join("")).toBe(result.output);
    expect(result.output).toBe("line1\nline2\nline3\n");
  });

  it("decodes UTF-8 split across chunks", async () => {
    const shell = createShell({ baseEnv: env });
    const result = await shell.run({
      command: "printf '\\xc3'; sleep 0.05; printf '\\xa9\\n'",
      cwd: dir,
    });
    expect(result.output).toBe("é\n");
  });

  // A grace period that ends before the leader's output is drained (250 ms), and one that
  // outlasts it: the member that ignores SIGTERM gets SIGKILL in both.
  it.each([200, 700])(
    "kills the whole tree on timeout, escalating to SIGKILL (grace %i ms)",
    async (killGraceMs) => {
      const shell = createShell({ baseEnv: env, killGraceMs });
      const pidFile = join(dir, "pid");
      const result = await shell.run({
        command: `bash -c 'trap "" TERM; sleep 30' & echo $! > ${pidFile}; sleep 30`,
        cwd: dir,
        timeoutMs: 300,
      });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      const pid = Number(await readFile(pidFile, "utf8"));
      expect(await waitForProcessExit(pid)).toBe(true);
    },
  );

  it("kills the whole tree on cancel", async () => {
    const shell = createShell({ baseEnv: env });
    const controller = new AbortController();
    const pidFile = join(dir, "pid");
    const result = await shell.run({
      command: `sleep 30 & echo $! > ${pidFile}; echo started; wait`,
      cwd: dir,
      signal: controller.signal,
      onOutput: (text) => {
        if (text.includes("started")) controller.abort();
      },
    });
    expect(result.cancelled).toBe(true);
    expect(await waitForProcessExit(Number(await readFile(pidFile, "utf8")))).toBe(true);
  });

  it("does not start when the signal is already aborted", async () => {
    const shell = createShell({ baseEnv: env });
    const result = await shell.run({
      command: `touch ${join(dir, "ran")}`,
      cwd: dir,
      signal: AbortSignal.abort(),
    });
    expect(result.cancelled).toBe(true);
    await expect(readFile(join(dir, "ran"))).rejects.toThrow();
  });

  it("cuts long output, keeping start and end, and stores the whole in an artifact", async () => {
    const shell = createShell({ baseEnv: env });
    const artifacts = new MemoryArtifacts();
    const result = await shell.run({
      command: "seq 1 20000",
      cwd: dir,
      maxOutputChars: 1000,
      artifacts,
    });
    expect(result.truncated).toBe(true);
    expect(result.output.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.output.endsWith("19999\n20000\n")).toBe(true);
    expect(result.artifact).not.toBeNull();
    expect(result.output).toContain(result.artifact!.ref);
    const whole = artifacts.text(result.artifact!.ref);
    expect(whole.split("\n").length).toBe(20001);
    expect(result.output.length).toBeLessThan(1200);
  });

  it("says so inline when the artifact sink fails, and still resolves", async () => {
    const shell = createShell({ baseEnv: env });
    const result = await shell.run({
      command: "seq 1 5000",
      cwd: dir,
      maxOutputChars: 200,
      artifacts: new FailingArtifacts(),
    });
    expect(result.truncated).toBe(true);
    expect(result.artifact).toBeNull();
    expect(result.output).toContain("could not be stored: Error: disk full");
  });

  it("applies the environment policy: secrets removed, request variables added", async () => {
    const shell = createShell({
      baseEnv: { ...env, ANTHROPIC_API_KEY: "sk-secret", GITHUB_TOKEN: "t", KEEP: "yes" },
    });
    const result = await shell.run({
      command: 'echo "[$ANTHROPIC_API_KEY][$GITHUB_TOKEN][$KEEP][$EXTRA][$PAGER]"',
      cwd: dir,
      env: { EXTRA: "x" },
    });
    expect(result.output).toBe("[][][yes][x][cat]\n");
  });

  it("reports a missing working folder or program as an error, never a throw", async () => {
    const shell = createShell({ baseEnv: env });
    const missingDir = await shell.run({ command: "true", cwd: join(dir, "nope") });
    expect(missingDir.exitCode).toBeNull();
    expect(missingDir.error).toContain("working folder does not exist");
    const noProgram = createShell({ baseEnv: env, program: join(dir, "no-such-shell") });
    const missingProgram = await noProgram.run({ command: "true", cwd: dir });
    expect(missingProgram.exitCode).toBeNull();
    expect(missingProgram.error).toContain("ENOENT");
  });

  it("runs concurrent commands independently", async () => {
    const shell = createShell({ baseEnv: env });
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => shell.run({ command: `echo ${n}; exit ${n}`, cwd: dir })),
    );
    expect(results.map((r) => [r.output, r.exitCode])).toEqual([
      ["1\n", 1],
      ["2\n", 2],
      ["3\n", 3],
      ["4\n", 4],
    ]);
  });
});

describe("createShell().spawnBackground", () => {
  it("reads only new output on each read, and kill ends the whole tree", async () => {
    const shell = createShell({ baseEnv: env });
    let seen = "";
    let wake: () => void = () => {};
    const waitFor = (text: string) =>
      new Promise<void>((resolve) => {
        wake = () => {
          if (seen.includes(text)) resolve();
        };
        wake();
      });
    const job = shell.spawnBackground({
      command: "mkfifo go; echo one; read x < go; sleep 30 & echo $! > pid; echo two; wait",
      cwd: dir,
      onOutput: (text) => {
        seen += text;
        wake();
      },
    });
    expect(job.pid).toBeGreaterThan(0);
    await waitFor("one");
    expect(job.readNewOutput()).toBe("one\n");
    await writeFile(join(dir, "go"), "go\n");
    await waitFor("two");
    expect(job.running).toBe(true);
    expect(job.readNewOutput()).toBe("two\n");
    expect(job.readNewOutput()).toBe("");
    await job.kill();
    expect(job.running).toBe(false);
    const result = await job.done;
    expect(result.cancelled).toBe(true);
    // The group's other members die of the same signal a moment after its leader.
    const straggler = Number(await readFile(join(dir, "pid"), "utf8"));
    expect(await waitForProcessExit(straggler)).toBe(true);
  });

  it("resolves done with the exit code when the job ends by itself", async () => {
    const shell = createShell({ baseEnv: env });
    const job = shell.spawnBackground({ command: "echo done; exit 7", cwd: dir });
    const result = await job.done;
    expect(result.exitCode).toBe(7);
    expect(job.running).toBe(false);
    expect(job.readNewOutput()).toBe("done\n");
  });

  it("keeps only the newest unread output when a job floods, and says how much went", async () => {
    const shell = createShell({ baseEnv: env, maxUnreadChars: 100 });
    const job = shell.spawnBackground({ command: "seq 1 10000", cwd: dir });
    await job.done;
    const text = job.readNewOutput();
    expect(text).toMatch(/^\[\d+ earlier characters dropped\]\n/);
    expect(text.endsWith("9999\n10000\n")).toBe(true);
  });

  it("fails cleanly when the job cannot start", async () => {
    const shell = createShell({ baseEnv: env });
    const job = shell.spawnBackground({ command: "true", cwd: join(dir, "missing") });
    expect(job.running).toBe(false);
    expect((await job.done).error).toContain("working folder does not exist");
  });
});
