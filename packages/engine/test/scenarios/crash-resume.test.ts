import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import { INTERRUPTED_TOOL_RESULT } from "@z-engine/store";
import { createFixtureRepo, EventRecorder, reply, ScriptedModel } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { loginProject } from "../harness.js";
import { requestShapeProblems } from "../request-shape.js";
import { childScript, count, reap, watch } from "../child-watch.js";

interface LogLine {
  kind: string;
  [key: string]: unknown;
}

/**
 * Runs a session in a child process, kills it with SIGKILL at the point `killWhen` names,
 * reopens the session in this process and runs one more turn.
 */
async function crashAndResume(
  kind: "tool" | "stream" | "question",
  killWhen: (lines: readonly string[], pidFile: string) => boolean,
  damage?: (logPath: string) => Promise<void>,
) {
  const repo = await createFixtureRepo({ files: loginProject });
  const home = await mkdtemp(join(tmpdir(), "zeng-crash-"));
  const pidFile = join(home, "tool.pid");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_HOME: join(home, "data"),
  };
  await mkdir(env.ZENGINE_CONFIG_HOME, { recursive: true });
  const child = spawn(
    process.execPath,
    [childScript, JSON.stringify({ home, project: repo.root, kind, pidFile })],
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
    await out.until((lines) => killWhen(lines, pidFile), "the kill point");
    child.kill("SIGKILL");
    await out.exited;
    reap(pidFile);
    const id = out.lines.find((l) => l.startsWith("session "))?.slice("session ".length) ?? "";
    expect(id).not.toBe("");
    if (damage) await damage(join(env.ZENGINE_HOME, "sessions", id, "log.jsonl"));
    const session = await engine.openSession(id);
    const log = (await readFile(session.logPath, "utf8")).split("\n").flatMap((l): LogLine[] => {
      try {
        return [JSON.parse(l) as LogLine];
      } catch {
        return []; // the damaged lines the test wrote stay in the append-only log
      }
    });
    const crashNotice = recorder
      .ofType("notice")
      .find((n) => n.code === "session.resumedAfterCrash");
    expect(crashNotice?.message).toContain("closed as interrupted");
    const ended = log.filter((r) => r.kind === "turnEnded");
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ outcome: "interrupted" });
    model.push(reply.text("Picking up where we left off."));
    const summary = await session.run("carry on");
    expect(summary.outcome).toBe("completed");
    const request = model.requests[0];
    if (!request) throw new Error("no request was sent after the resume");
    expect(requestShapeProblems(request)).toEqual([]);
    expect(recorder.ofType("toolStarted")).toHaveLength(0);
    await session.close();
    return { log, request, crashNotice, notices: recorder.ofType("notice") };
  } finally {
    child.kill("SIGKILL");
    reap(pidFile);
    await engine.shutdown();
    await repo.dispose();
    await rm(home, { recursive: true, force: true });
  }
}

describe("crash and resume (a session process killed with SIGKILL)", () => {
  it("in the middle of a tool call: the turn is interrupted, the call answered, the next request well-formed, every time", async () => {
    const points = [
      (lines: readonly string[]) => lines.includes("event toolStarted"),
      (lines: readonly string[], pidFile: string) =>
        lines.includes("event toolStarted") && existsSync(pidFile),
      (lines: readonly string[], pidFile: string) =>
        lines.includes("event toolStarted") &&
        existsSync(pidFile) &&
        readFileSync(pidFile, "utf8").trim() !== "",
    ];
    for (const point of points) {
      const { log, request, crashNotice } = await crashAndResume("tool", point);
      expect(crashNotice?.message).toContain('1 unanswered tool call(s) got "interrupted" results');
      const answer = log.find(
        (r) => r.kind === "message" && JSON.stringify(r.message).includes(INTERRUPTED_TOOL_RESULT),
      );
      expect(JSON.stringify(answer)).toContain("call_crash_tool");
      expect(log.map((r) => r.kind)).toContain("checkpoint");
      const call = request.messages.findIndex((m) =>
        m.content.some((b) => b.type === "toolUse" && b.id === "call_crash_tool"),
      );
      expect(call).toBeGreaterThan(0);
      expect(JSON.stringify(request.messages[call + 1])).toContain(INTERRUPTED_TOOL_RESULT);
      expect(JSON.stringify(request.messages.at(-1))).toContain("carry on");
    }
  }, 60_000);

  it("in the middle of a stream: the turn is interrupted and the next request well-formed, every time", async () => {
    for (const deltas of [1, 3, 8]) {
      const { log, request } = await crashAndResume(
        "stream",
        (lines) => count(lines, "event textDelta") >= deltas,
      );
      expect(
        log.some(
          (r) => r.kind === "message" && (r.message as { role: string }).role === "assistant",
        ),
      ).toBe(false);
      const prompts = JSON.stringify(request.messages);
      expect(prompts).toContain("do the long thing");
      expect(prompts).toContain("carry on");
    }
  }, 60_000);

  it("while a question waits: the question is dismissed and its call answered", async () => {
    const { log, request, crashNotice } = await crashAndResume("question", (lines) =>
      lines.includes("event questionAsked"),
    );
    expect(crashNotice?.message).toContain("open questions and plans were dismissed");
    expect(log.find((r) => r.kind === "questionAnswered")).toMatchObject({ dismissed: true });
    const call = request.messages.findIndex((m) =>
      m.content.some((b) => b.type === "toolUse" && b.id === "call_crash_question"),
    );
    expect(JSON.stringify(request.messages[call + 1])).toContain(INTERRUPTED_TOOL_RESULT);
  }, 30_000);

  it("with damaged lines and a half-written last line: both are reported and the rest resumes", async () => {
    const { notices, request } = await crashAndResume(
      "tool",
      (lines) => lines.includes("event toolStarted"),
      async (logPath) => {
        await appendFile(
          logPath,
          '{"v":2,"kind":"message","ts":1}\nnot json at all\n{"v":2,"kind":"mess',
        );
      },
    );
    expect(notices.find((n) => n.code === "log.tornTail")?.message).toContain("cut");
    expect(notices.find((n) => n.code === "log.damaged")?.message).toContain("2 damaged line(s)");
    expect(JSON.stringify(request.messages)).toContain(INTERRUPTED_TOOL_RESULT);
  }, 30_000);
});
