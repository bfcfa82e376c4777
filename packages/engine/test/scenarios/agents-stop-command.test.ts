import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { AgentId, ModelRequest, ToolCallId, ToolResultBlock } from "@z-engine/protocol";
import { reply, waitForProcessExit, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sessionAgentList } from "@z-engine/engine";
import { type Harness, harness, resultsOf } from "../harness.js";
import { until } from "../mcp-support.js";

// The protocol's stopAgent command: a host that only sends commands stops one subagent.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const MARK = "MARKER-SLEEPER";
const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
const isMain = (r: ModelRequest) => !isSub(r);
const files = {
  "README.md": "# x\n",
  ".claude/agents/sleeper.md": `---\nname: sleeper\ndescription: Sleeps\ntools: Bash\n---\n${MARK}\n`,
};
const text = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
const hasPid = (file: string) => {
  try {
    return /^\d+/.test(readFileSync(file, "utf8"));
  } catch {
    return false;
  }
};

describe("the stopAgent command", () => {
  it("stops a running subagent's sleep 30 and the parent's turn completes", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    const pidFile = h.repo.path("sleep.pid");
    h.model.push(
      when(
        isMain,
        reply.toolCall("Agent", {
          description: "sleep",
          prompt: "sleep",
          subagent_type: "sleeper",
        }),
      ),
      when(isSub, reply.toolCall("Bash", { command: `sleep 30 & echo $! > ${pidFile}; wait` })),
      when(isSub, reply.text("never sent")),
      when(isMain, reply.text("went on without it")),
    );
    const turnId = h.session.send({ type: "submit", text: "start the sleeper" });
    await until(() => hasPid(pidFile), "the subagent's sleep");
    const [running] = (await sessionAgentList(h.session)).agents;
    const agentId = (running?.agentId ?? "") as AgentId;
    expect(h.session.send({ type: "stopAgent", agentId })).toBeUndefined();
    expect((await h.session.turnEnd(turnId as never)).outcome).toBe("completed");
    const pid = Number((await readFile(pidFile, "utf8")).trim());
    expect(await waitForProcessExit(pid, 10_000)).toBe(true);
    expect(h.model.requests.filter(isSub)).toHaveLength(1);
    const [result] = resultsOf(h, h.model.requests.findLastIndex(isMain));
    expect(text(result)).toContain(`agent ${agentId} (sleeper) cancelled: stopped by the user`);
    expect((await sessionAgentList(h.session)).agents[0]?.status).toBe("cancelled");
    expect(h.recorder.ofType("notice").filter((n) => n.code === "agent.unknown")).toEqual([]);
  });

  it("answers an unknown agent or Agent call with an agent.unknown warning", async () => {
    h = await harness({ files, script: [] });
    h.session.send({ type: "stopAgent", agentId: "agent_nope" as AgentId });
    h.session.send({ type: "stopAgent", toolCallId: "toolu_nope" as ToolCallId });
    await h.session.idle();
    const notices = h.recorder.ofType("notice").filter((n) => n.code === "agent.unknown");
    expect(notices.map((n) => [n.level, n.message])).toEqual([
      ["warning", "agent agent_nope is not running"],
      ["warning", "the agent of call toolu_nope is not running"],
    ]);
  });
});
