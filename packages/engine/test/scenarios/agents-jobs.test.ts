import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { JobInfo, ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { reply, waitForProcessExit, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness, resultsOf } from "../harness.js";
import { until } from "../mcp-support.js";

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const systemText = (r: ModelRequest) => JSON.stringify(r.system);
const sub = (marker: string) => (r: ModelRequest) => systemText(r).includes(marker);
const MARKS = { fg: "MARKER-FOREGROUND", bg: "MARKER-BACKGROUND" };
const main = (r: ModelRequest) => !Object.values(MARKS).some((m) => systemText(r).includes(m));
const resultText = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");

const agent = (name: string, marker: string) =>
  `---\nname: ${name}\ndescription: The ${name} agent\ntools: Bash, Read\n---\n${marker}\n`;
const files = {
  "README.md": "# x\n",
  ".claude/agents/fg.md": agent("fg", MARKS.fg),
  ".claude/agents/bg.md": agent("bg", MARKS.bg),
};

/** The job id a tool result announced. */
const jobIdIn = (text: string) => /\b(job_[A-Za-z0-9_-]+)/.exec(text)?.[1] ?? "";

/** Whether a command wrote its pid into `file` yet. */
const hasPid = (file: string) => {
  try {
    return /^\d+/.test(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
};

/** The jobUpdated states of one job, in order. */
const statesOf = (x: Harness, id: string) =>
  x.recorder
    .ofType("jobUpdated")
    .map((e) => e.job as JobInfo)
    .filter((j) => j.id === id)
    .map((j) => j.status);

async function logRecords(x: Harness): Promise<{ kind: string; [k: string]: unknown }[]> {
  const file = join(x.home, "data", "sessions", x.session.id, "log.jsonl");
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe("JobKill", () => {
  it("stops a background agent and a background shell: jobs killed, the agent's run cancelled", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const pidFile = h.repo.path("shell.pid");
    const agentPidFile = h.repo.path("agent.pid");
    h.model.push(
      when(
        main,
        reply.toolCalls([
          {
            name: "Agent",
            input: {
              description: "slow",
              prompt: "p",
              subagent_type: "bg",
              run_in_background: true,
            },
          },
          {
            name: "Bash",
            input: { command: `echo $$ > ${pidFile}; exec sleep 300`, run_in_background: true },
          },
        ]),
      ),
      when(main, reply.text("both started")),
      // The agent is busy in a real command when it is killed.
      when(
        sub(MARKS.bg),
        reply.toolCall("Bash", { command: `sleep 300 & echo $! > ${agentPidFile}; wait` }),
      ),
      when(sub(MARKS.bg), reply.text("never sent")),
    );
    expect((await h.session.run("start them")).outcome).toBe("completed");
    const [agentStart, shellStart] = resultsOf(h, h.model.requests.findLastIndex(main));
    const agentJob = jobIdIn(resultText(agentStart));
    const shellJob = jobIdIn(resultText(shellStart));
    expect(agentJob).not.toBe("");
    expect(shellJob).not.toBe("");
    // Both run after the turn ended: the agent's request is in flight, the shell wrote its pid.
    await until(() => h?.model.requests.some(sub(MARKS.bg)) ?? false, "the agent's request");
    await until(() => statesOf(h as Harness, shellJob).length > 0, "the shell job");
    await until(() => hasPid(pidFile) && hasPid(agentPidFile), "the pids");
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    const agentPid = Number((await readFile(agentPidFile, "utf8")).trim());
    expect(statesOf(h, agentJob)).toEqual(["running"]);
    expect(statesOf(h, shellJob)).toEqual(["running"]);

    h.model.push(
      when(
        main,
        reply.toolCalls([
          { name: "JobKill", input: { job_id: agentJob } },
          { name: "JobKill", input: { job_id: shellJob } },
        ]),
      ),
      when(main, reply.text("killed both")),
    );
    expect((await h.session.run("kill them")).outcome).toBe("completed");
    const killed = resultsOf(h, h.model.requests.findLastIndex(main));
    expect(killed.map((r) => r.isError)).toEqual([false, false]);
    expect(resultText(killed[0])).toContain("killed");
    expect(resultText(killed[1])).toContain("killed");
    expect(statesOf(h, agentJob)).toEqual(["running", "killed"]);
    expect(await waitForProcessExit(pid, 10_000)).toBe(true);
    expect(await waitForProcessExit(agentPid, 10_000)).toBe(true);
    // The killed agent asked nothing more of the model.
    expect(h.model.requests.filter(sub(MARKS.bg))).toHaveLength(1);
    expect(statesOf(h, shellJob)).toEqual(["running", "killed"]);
    const finished = (await logRecords(h)).filter((r) => r.kind === "agentFinished");
    expect(finished).toHaveLength(1);
    expect(finished[0]?.status).toBe("cancelled");
  });
});

describe("cancel and interrupt", () => {
  it.each(["interrupt", "cancel"] as const)(
    "%s stops a foreground agent; background agents and shells go on",
    async (stop) => {
      h = await harness({ files, script: [], overrides: { mode: "bypass" } });
      const go = h.repo.path("go");
      const fgPid = h.repo.path("fg.pid");
      h.model.push(
        when(
          main,
          reply.toolCalls([
            {
              name: "Agent",
              input: {
                description: "bg",
                prompt: "p",
                subagent_type: "bg",
                run_in_background: true,
              },
            },
            { name: "Bash", input: { command: "sleep 300", run_in_background: true } },
            { name: "Agent", input: { description: "fg", prompt: "p", subagent_type: "fg" } },
          ]),
        ),
        // The background agent waits for the test's word, in a real shell.
        when(
          sub(MARKS.bg),
          reply.toolCall("Bash", {
            command: `while [ ! -f ${go} ]; do sleep 0.05; done; echo released`,
          }),
        ),
        when(sub(MARKS.bg), reply.text("background report")),
        when(
          sub(MARKS.fg),
          reply.toolCall("Bash", { command: `sleep 300 & echo $! > ${fgPid}; wait` }),
        ),
        when(sub(MARKS.fg), reply.text("never sent")),
      );
      const turnId = h.session.send({ type: "submit", text: "start all three" });
      await until(() => hasPid(fgPid), "the foreground agent's command");
      await until(() => h?.model.requests.some(sub(MARKS.bg)) ?? false, "the background agent");
      h.session.send({ type: stop });
      const summary = await h.session.turnEnd(turnId as never);
      expect(summary.outcome).toBe("cancelled");
      const fgCommand = Number((await readFile(fgPid, "utf8")).trim());
      expect(await waitForProcessExit(fgCommand, 10_000)).toBe(true);
      expect(h.model.requests.filter(sub(MARKS.fg))).toHaveLength(1);
      const jobs = h.recorder.ofType("jobUpdated").map((e) => e.job as JobInfo);
      const agentJob = jobs.find((j) => j.kind === "agent")?.id ?? "";
      const shellJob = jobs.find((j) => j.kind === "shell")?.id ?? "";
      expect(statesOf(h, agentJob)).toEqual(["running"]);
      expect(statesOf(h, shellJob)).toEqual(["running"]);
      const fgFinished = (await logRecords(h)).filter((r) => r.kind === "agentFinished");
      expect(fgFinished.map((r) => r.status)).toEqual(["cancelled"]);

      // The background agent was not stopped: given its word, it finishes its work.
      await writeFile(go, "");
      await h.recorder.waitFor(
        "jobUpdated",
        { job: { id: agentJob, status: "completed" } },
        {
          timeoutMs: 20_000,
        },
      );
      expect(statesOf(h, agentJob)).toEqual(["running", "completed"]);
      expect(statesOf(h, shellJob)).toEqual(["running"]);
      const bgRequests = h.model.requests.filter(sub(MARKS.bg));
      expect(JSON.stringify(bgRequests.at(-1)?.messages.at(-1))).toContain("released");
      const finished = (await logRecords(h)).filter((r) => r.kind === "agentFinished");
      expect(finished.map((r) => r.status)).toEqual(["cancelled", "completed"]);
    },
  );
});
