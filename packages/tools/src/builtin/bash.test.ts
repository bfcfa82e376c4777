import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type JobId, type JobInfo, newJobId } from "@z-engine/protocol";
import { type BackgroundProcess, createShell, type Shell } from "@z-engine/host";
import { waitForProcessExit } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JobPort } from "../ports.js";
import { runTool } from "../run-tool.js";
import { testCtx, textOf } from "../test-support/ctx.js";
import { bashTool } from "./bash.js";
import { jobKillTool, jobOutputTool } from "./jobs.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-bash-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("Bash", () => {
  it("runs in the persistent shell folder, streams progress and keeps a cd", async () => {
    await mkdir(join(dir, "sub"));
    const progress: string[] = [];
    const ctx = testCtx({ root: dir, progress });
    const out = await runTool(bashTool, { command: "echo hello; cd sub" }, ctx);
    expect(out.isError).toBe(false);
    expect(textOf(out)).toMatch(/^hello\n/);
    expect(textOf(out)).toMatch(/Working folder is now .*sub/);
    expect(progress.join("")).toContain("hello");
    expect(ctx.shellSession.cwd).toBe(join(dir, "sub"));
    expect(textOf(await runTool(bashTool, { command: "pwd" }, ctx)).trim()).toBe(join(dir, "sub"));
    expect(out.display).toMatchObject({
      kind: "command",
      command: "echo hello; cd sub",
      cwd: dir,
      exitCode: 0,
    });
  });

  it("tells the shell which tool call runs the command (a host's terminal shows it there)", async () => {
    const real = createShell({ baseEnv: { PATH: process.env.PATH } });
    const seen: Array<string | undefined> = [];
    const shell: Shell = {
      run: (request) => {
        seen.push(request.toolCallId);
        return real.run(request);
      },
      spawnBackground: (request) => real.spawnBackground(request),
    };
    const out = await runTool(bashTool, { command: "echo hi" }, testCtx({ root: dir, shell }));
    expect(textOf(out).trim()).toBe("hi");
    expect(seen).toEqual(["call_test"]);
  });

  it("reports a failing exit code as an error result", async () => {
    const out = await runTool(
      bashTool,
      { command: "echo oops >&2; exit 3" },
      testCtx({ root: dir }),
    );
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/oops[\s\S]*Exit code 3/);
  });

  it("times out and kills the command", async () => {
    const out = await runTool(
      bashTool,
      { command: "sleep 30", timeout: 200 },
      testCtx({ root: dir }),
    );
    expect(out.isError).toBe(true);
    expect(textOf(out)).toMatch(/Timed out after 200 ms/);
  });

  it("kills the whole process tree on cancel", async () => {
    const controller = new AbortController();
    let pid = 0;
    const ctx = testCtx({ root: dir, signal: controller.signal });
    const cancelling = {
      ...ctx,
      onProgress: (text: string) => {
        const found = /started (\d+)/.exec(text);
        if (found) {
          pid = Number(found[1]);
          controller.abort();
        }
      },
    };
    const out = await bashTool.call({ command: "sleep 300 & echo started $!; wait" }, cancelling);
    expect(textOf(out)).toMatch(/Cancelled; the process tree was killed/);
    expect(pid).toBeGreaterThan(0);
    // SIGKILL is delivered at once but the process ends a moment later: wait for it, bounded.
    expect(await waitForProcessExit(pid)).toBe(true);
  });

  it("spills long output to the artifact sink", async () => {
    const ctx = testCtx({ root: dir, limits: { maxOutputChars: 1000 } });
    const out = await runTool(bashTool, { command: "seq 1 5000" }, ctx);
    expect(out.artifacts).toHaveLength(1);
    expect(textOf(out).length).toBeLessThan(2000);
  });

  it("parses the command into its action and judges read-only commands", async () => {
    const ctx = testCtx({ root: dir });
    const [action] = await bashTool.action({ command: "git status && rm -rf x > out.txt" }, ctx);
    expect(action).toMatchObject({ kind: "command", cwd: dir });
    if (action?.kind !== "command") throw new Error("expected a command action");
    expect(action.command.commands.map((c) => c.argv[0])).toEqual(["git", "rm"]);
    expect(action.command.redirections).toMatchObject([
      { operator: ">", target: "out.txt", writes: true },
    ]);
    expect(bashTool.isReadOnly({ command: "ls -la" })).toBe(true);
    expect(bashTool.isReadOnly({ command: "rm -rf x" })).toBe(false);
    expect(bashTool.isReadOnly({ command: "ls", run_in_background: true })).toBe(false);
  });

  it("validates its input", async () => {
    const ctx = testCtx({ root: dir });
    expect(textOf(await runTool(bashTool, { command: "ls", timeout: 700_000 }, ctx))).toMatch(
      /timeout/,
    );
    expect(textOf(await runTool(bashTool, { cmd: "ls" }, ctx))).toMatch(/command: missing field/);
    expect(
      textOf(await runTool(bashTool, { command: "ls", run_in_background: true }, ctx)),
    ).toMatch(/Background jobs are not available/);
  });
});

/** A JobPort over the host shell's background processes (the engine's is the real one). */
function shellJobs(ctx: ReturnType<typeof testCtx>): JobPort {
  const jobs = new Map<JobId, { info: JobInfo; process: BackgroundProcess }>();
  const infoOf = (id: JobId): JobInfo | null => {
    const job = jobs.get(id);
    if (!job) return null;
    return job.process.running ? job.info : { ...job.info, status: "completed", exitCode: 0 };
  };
  return {
    async spawnShell(request, description) {
      const id = newJobId();
      const info: JobInfo = {
        id,
        kind: "shell",
        description,
        status: "running",
        exitCode: null,
        startedAt: Date.now(),
      };
      jobs.set(id, { info, process: ctx.shell.spawnBackground(request) });
      return info;
    },
    async readOutput(id) {
      const job = jobs.get(id);
      return job ? { job: infoOf(id)!, output: job.process.readNewOutput() } : null;
    },
    async kill(id) {
      const job = jobs.get(id);
      if (!job) return null;
      await job.process.kill();
      return { ...job.info, status: "killed" };
    },
    list: () => [...jobs.keys()].map((id) => infoOf(id)!),
  };
}

describe("background jobs", () => {
  it("starts a job, reads its output with a filter, and kills it", async () => {
    const base = testCtx({ root: dir });
    const ctx = { ...base, ports: { jobs: shellJobs(base) } };
    const started = await runTool(
      bashTool,
      { command: "echo one; echo two; sleep 300", run_in_background: true },
      ctx,
    );
    const id = /job (\S+)\./.exec(textOf(started))?.[1];
    expect(id).toBeDefined();
    const job = [...ctx.ports.jobs.list()][0]!;
    const finished = await runTool(jobOutputTool, { job_id: id, filter: "^t" }, ctx);
    expect(textOf(finished)).toMatch(/is running/);
    const killed = await runTool(jobKillTool, { job_id: id }, ctx);
    expect(textOf(killed)).toBe(`Job ${job.id} killed.`);
    expect(textOf(await runTool(jobOutputTool, { job_id: "job_nope" }, ctx))).toMatch(
      /No job with id/,
    );
    expect(textOf(await runTool(jobOutputTool, { job_id: id, filter: "(" }, ctx))).toMatch(
      /Invalid filter/,
    );
  });
});
