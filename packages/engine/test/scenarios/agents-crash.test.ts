import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import type { ModelRequest } from "@z-engine/protocol";
import { readLog } from "@z-engine/store";
import { createFixtureRepo, EventRecorder, reply, ScriptedModel, when } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { childScript, count, watch } from "../child-watch.js";
import { loginProject } from "../harness.js";
import { requestShapeProblems } from "../request-shape.js";

const SUB = "CRASH-AGENT-MARKER";
const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(SUB);

describe("SIGKILL while a background agent runs", () => {
  it("leaves a well-formed agent transcript; the parent sees the agent interrupted and can resume it", async () => {
    const repo = await createFixtureRepo({
      files: {
        ...loginProject,
        ".claude/agents/digger.md": `---\nname: digger\ndescription: Digs\ntools: Read\n---\n${SUB}\n`,
      },
    });
    const home = await mkdtemp(join(tmpdir(), "zeng-agent-crash-"));
    const env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ZENGINE_CONFIG_HOME: join(home, "config"),
      ZENGINE_HOME: join(home, "data"),
    };
    await mkdir(env.ZENGINE_CONFIG_HOME, { recursive: true });
    const child = spawn(
      process.execPath,
      [
        childScript,
        JSON.stringify({ home, project: repo.root, kind: "agent", pidFile: join(home, "none") }),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const out = watch(child);
    const model = new ScriptedModel();
    const recorder = new EventRecorder();
    const engine = await createEngine({
      paths: resolvePaths(env),
      env,
      homeDir: home,
      catalogSource: "off",
      clientFactory: () => model,
      onEvent: (e) => recorder.sink(e),
    });
    try {
      // The main turn has ended and the agent's second request is under way.
      await out.until(
        (lines) =>
          lines.includes("event turnFinished") && count(lines, "agent-event assistantStarted") >= 2,
        "the background agent's second request",
      );
      child.kill("SIGKILL");
      await out.exited;
      const sessionId = out.lines.find((l) => l.startsWith("session "))?.slice(8) ?? "";
      const agentId = out.lines.find((l) => l.startsWith("agent "))?.slice(6) ?? "";
      expect(agentId).toMatch(/^agent_/);
      const sessionDir = join(env.ZENGINE_HOME, "sessions", sessionId);
      // The transcript reads back whole: no damaged line, the prompt, the call and its result.
      const transcript = await readLog(join(sessionDir, "agents", `${agentId}.jsonl`));
      expect(transcript.damage).toEqual([]);
      expect(JSON.stringify(transcript.records)).toContain("call_sub_read");

      const session = await engine.openSession(sessionId);
      const log = (await readFile(session.logPath, "utf8")).split("\n").filter(Boolean);
      const finished = log.map((l) => JSON.parse(l)).filter((r) => r.kind === "agentFinished");
      expect(finished).toEqual([
        expect.objectContaining({ agentId, status: "failed", reason: "interrupted" }),
      ]);

      model.push(
        when(
          (r) => !isSub(r),
          reply.toolCall("Agent", {
            description: "go on",
            prompt: "Carry on digging",
            resume: agentId,
          }),
        ),
        when(isSub, reply.text("Dug it all.")),
        when((r) => !isSub(r), reply.text("Done.")),
      );
      const summary = await session.run("what happened to the digger?");
      expect(summary.outcome).toBe("completed");
      const first = model.requests[0];
      // The parent was told its agent was interrupted.
      expect(JSON.stringify(first?.messages.at(-1))).toContain(`${agentId} was interrupted`);
      const resumed = model.requests.find(isSub);
      if (!resumed) throw new Error("the agent was not resumed");
      expect(requestShapeProblems(resumed)).toEqual([]);
      const text = JSON.stringify(resumed.messages);
      expect(text).toContain("Dig slowly");
      expect(text).toContain("call_sub_read");
      expect(text).toContain("Carry on digging");
      expect(JSON.stringify(model.requests.at(-1)?.messages.at(-1))).toContain("Dug it all.");
      await session.close();
    } finally {
      child.kill("SIGKILL");
      await engine.shutdown();
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
