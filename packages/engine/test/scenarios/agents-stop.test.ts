import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { JobInfo, ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { reply, waitForProcessExit, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionAgentList, stopAgent } from "@z-engine/engine";
import { type Harness, harness, resultsOf } from "../harness.js";
import { until } from "../mcp-support.js";

// The host's stopAgent: one subagent stopped as the user decided, its parent's turn going on.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const MARK = "MARKER-WAITER";
const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
const isMain = (r: ModelRequest) => !isSub(r);
const files = {
  "README.md": "# x\n",
  ".claude/agents/waiter.md": `---\nname: waiter\ndescription: Waits\ntools: Bash\n---\n${MARK}\n`,
};
const text = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
const agentCall = (background = false) =>
  reply.toolCall("Agent", {
    description: "wait",
    prompt: "wait for me",
    subagent_type: "waiter",
    ...(background ? { run_in_background: true } : {}),
  });
const hasPid = (file: string) => {
  try {
    return /^\d+/.test(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
};

describe("stopAgent", () => {
  it("stops a foreground agent whose model is still answering: its call says so and the turn goes on", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    h.model.push(
      when(isMain, agentCall()),
      when(isSub, reply.fault({ stall: true })),
      when(isMain, reply.text("carried on without it")),
    );
    const turnId = h.session.send({ type: "submit", text: "start the waiter" });
    await until(() => h?.model.requests.some(isSub) ?? false, "the subagent's request");
    const running = (await sessionAgentList(h.session)).agents;
    expect(running.map((a) => a.status)).toEqual(["running"]);
    const agentId = running[0]?.agentId ?? "";

    expect(await stopAgent(h.session, { agentId })).toEqual({ stopped: true, agentId });
    const summary = await h.session.turnEnd(turnId as never);
    expect(summary.outcome).toBe("completed");
    const [result] = resultsOf(h, h.model.requests.findLastIndex(isMain));
    expect(result?.isError).toBe(true);
    expect(text(result)).toContain("(the agent was stopped by the user before its final message)");
    expect(text(result)).toContain(`agent ${agentId} (waiter) cancelled: stopped by the user`);
    const [agent] = (await sessionAgentList(h.session)).agents;
    expect(agent).toMatchObject({ status: "cancelled", reason: "stopped by the user" });
    expect(h.recorder.ofType("turnFinished").map((e) => e.outcome)).toEqual(["completed"]);
    // Stopped once: a second stop finds nothing running.
    expect(await stopAgent(h.session, { agentId })).toEqual({
      stopped: false,
      reason: `agent ${agentId} is not running`,
    });
  });

  it("stops a foreground agent by its Agent call's id while its command runs (the process ends)", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const pidFile = h.repo.path("sub.pid");
    h.model.push(
      when(isMain, agentCall()),
      when(isSub, reply.toolCall("Bash", { command: `sleep 300 & echo $! > ${pidFile}; wait` })),
      when(isSub, reply.text("never sent")),
      when(isMain, reply.text("done after the stop")),
    );
    const turnId = h.session.send({ type: "submit", text: "start the waiter" });
    const started = await h.recorder.waitFor("toolStarted", { toolName: "Agent" });
    await until(() => hasPid(pidFile), "the subagent's command");
    const outcome = await stopAgent(h.session, { toolCallId: started.toolCallId });
    expect(outcome.stopped).toBe(true);
    expect((await h.session.turnEnd(turnId as never)).outcome).toBe("completed");
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(await waitForProcessExit(pid, 10_000)).toBe(true);
    expect(h.model.requests.filter(isSub)).toHaveLength(1);
    expect(text(resultsOf(h, h.model.requests.findLastIndex(isMain))[0])).toContain(
      "cancelled: stopped by the user",
    );
  });

  it("stops a background agent (its job ends killed) and says in words when nothing runs", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    h.model.push(
      when(isMain, agentCall(true)),
      when(isMain, reply.text("started it")),
      when(isSub, reply.fault({ stall: true })),
    );
    expect((await h.session.run("start it in the background")).outcome).toBe("completed");
    await until(() => h?.model.requests.some(isSub) ?? false, "the background agent's request");
    const [agent] = (await sessionAgentList(h.session)).agents;
    const agentId = agent?.agentId ?? "";
    expect((await stopAgent(h.session, { agentId })).stopped).toBe(true);
    const jobs = h.recorder.ofType("jobUpdated").map((e) => e.job as JobInfo);
    expect(jobs.map((j) => j.status)).toEqual(["running", "killed"]);
    expect((await sessionAgentList(h.session)).agents[0]?.status).toBe("cancelled");
    expect(await stopAgent(h.session, { toolCallId: "toolu_none" })).toEqual({
      stopped: false,
      reason: "the agent of call toolu_none is not running",
    });
  });
});
