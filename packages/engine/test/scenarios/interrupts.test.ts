import { existsSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { part, processAlive, reply, waitForProcessExit, when } from "@z-engine/testkit";

import { type Harness, harness, loginProject } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("cancel, interrupt and steering", () => {
  it("cancel during a long Bash call kills its process tree and answers the call", async () => {
    h = await harness({ files: loginProject, script: [], overrides: { mode: "bypass" } });
    h.model.push(reply.toolCall("Bash", { command: "sleep 60 & echo $! > child.pid; wait" }));
    const ended = h.session.run("wait a minute");
    await h.recorder.waitFor("toolStarted", { toolName: "Bash" });
    const pidFile = h.repo.path("child.pid");
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await new Promise((r) => setImmediate(r));
    await h.recorder.waitFor("toolStarted");
    const started = Date.now();
    while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") {
      if (Date.now() - started > 5000) throw new Error("the command never wrote its pid");
      await new Promise((r) => setTimeout(r, 10));
    }
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(await processAlive(pid)).toBe(true);
    h.session.send({ type: "cancel" });
    const summary = await ended;
    expect(summary.outcome).toBe("cancelled");
    expect(summary.reason).toBe("cancelled by user");
    expect(await waitForProcessExit(pid)).toBe(true);
    h.recorder.expectSubsequence([
      { type: "toolFinished", toolName: "Bash", status: "cancelled" },
      { type: "turnFinished", outcome: "cancelled" },
    ]);
    // The log holds a result for the call, so the next request is valid.
    h.model.push(reply.text("ok"));
    await h.session.run("next");
    const last = h.model.requests.at(-1)?.messages ?? [];
    const results = last.flatMap((m) => m.content.filter((b) => b.type === "toolResult"));
    expect(JSON.stringify(results)).toContain("cancelled by user");
  });

  it("steering sent during a tool call joins the next round", async () => {
    h = await harness({ files: loginProject, script: [], overrides: { mode: "bypass" } });
    h.model.push(
      reply.toolCall("Bash", { command: "sleep 0.3; echo done" }),
      reply.text("Also checked expiry."),
    );
    const ended = h.session.run("run the slow thing");
    await h.recorder.waitFor("toolStarted", { toolName: "Bash" });
    h.session.send({ type: "steer", text: "Also check the token expiry." });
    await ended;
    const second = h.model.requests[1]?.messages.at(-1);
    expect(second?.role).toBe("user");
    expect(JSON.stringify(second?.content)).toContain("Also check the token expiry.");
    expect(second?.content[0]?.type).toBe("toolResult");
  });

  it("steering that arrives as the model stops continues the run", async () => {
    h = await harness({ files: loginProject, script: [] });
    h.model.push({ ...reply.text("first answer"), delayMs: 50 }, reply.text("second answer"));
    const ended = h.session.run("answer");
    await h.recorder.waitFor("assistantStarted");
    h.session.send({ type: "steer", text: "one more thing" });
    const summary = await ended;
    expect(summary.outcome).toBe("completed");
    expect(h.model.requests).toHaveLength(2);
  });

  it("steering that arrives once the run has ended becomes the next turn", async () => {
    h = await harness({ files: loginProject, script: [] });
    h.model.push(reply.text("first answer"), reply.text("second answer"));
    const ended = h.session.run("answer");
    // turnFinished is out, the turn is still flushing its log: too late for this run, and a
    // UI that still shows the turn running sends it as steering.
    await h.recorder.waitFor("turnFinished");
    h.session.send({ type: "steer", text: "one more thing" });
    expect((await ended).outcome).toBe("completed");
    await h.recorder.waitFor("turnFinished", {}, { fromIndex: h.recorder.envelopes.length });
    await h.session.idle();
    expect(h.model.requests).toHaveLength(2);
    expect(JSON.stringify(h.model.requests[1]?.messages.at(-1))).toContain("one more thing");
    const prompts = h.recorder.ofType("turnStarted").map((e) => e.prompt);
    expect(prompts).toEqual(["answer", "one more thing"]);
  });

  it("interrupt keeps queued steering for the next turn; cancel drops it", async () => {
    h = await harness({ files: loginProject, script: [] });
    h.model.push({ ...reply.text("slow"), delayMs: 200 });
    let ended = h.session.run("first");
    await h.recorder.waitFor("assistantStarted");
    h.session.send({ type: "steer", text: "kept steering" });
    h.session.send({ type: "interrupt" });
    expect((await ended).outcome).toBe("cancelled");
    h.model.push(reply.text("ok"));
    await h.session.run("second");
    expect(JSON.stringify(h.model.requests.at(-1)?.messages.at(-1))).toContain("kept steering");

    h.model.push({ ...reply.text("slow"), delayMs: 200 });
    ended = h.session.run("third");
    await h.recorder.waitFor("assistantStarted", {}, { fromIndex: h.recorder.envelopes.length });
    h.session.send({ type: "steer", text: "dropped steering" });
    h.session.send({ type: "cancel" });
    expect((await ended).outcome).toBe("cancelled");
    h.model.push(reply.text("ok"));
    await h.session.run("fourth");
    expect(JSON.stringify(h.model.requests.at(-1)?.messages)).not.toContain("dropped steering");
  });
});

describe("model failures and budgets", () => {
  it("a model error mid-stream fails the turn, keeps the text, drops its tool calls", async () => {
    h = await harness({
      files: loginProject,
      script: [
        reply.of(
          part.text("Looking"),
          part.toolCall("Read", { file_path: "x" }),
          part.error("server", "upstream 500"),
        ),
      ],
    });
    const summary = await h.session.run("go");
    expect(summary.outcome).toBe("failed");
    expect(summary.reason).toContain("upstream 500");
    const finished = h.recorder.ofType("assistantFinished")[0];
    expect(finished?.message.content).toEqual([{ type: "text", text: "Looking" }]);
    expect(h.recorder.ofType("toolStarted")).toHaveLength(0);
  });

  it("max_turns ends a turn as budgetExhausted", async () => {
    h = await harness({
      files: loginProject,
      script: [],
      overrides: { maxTurns: 2, mode: "bypass" },
    });
    for (let i = 0; i < 3; i++) h.model.push(reply.toolCall("Glob", { pattern: "*.json" }));
    const summary = await h.session.run("loop");
    expect(summary.outcome).toBe("budgetExhausted");
    expect(summary.reason).toContain("max_turns (2");
    expect(h.model.requests).toHaveLength(2);
  });

  it("the session cost cap ends a turn as budgetExhausted", async () => {
    h = await harness({
      files: loginProject,
      script: [],
      userSettings:
        '[agents]\nsession_cost_cap_usd = 0.01\n\n[pricing."claude-sonnet-5-5"]\ninput = 3\noutput = 15\n',
      overrides: { mode: "bypass" },
    });
    h.model.push(
      reply.toolCall("Glob", { pattern: "*.json" }, { usage: { input: 10_000, output: 100 } }),
      reply.text("unreachable"),
    );
    const summary = await h.session.run("spend");
    expect(summary.outcome).toBe("budgetExhausted");
    expect(summary.reason).toContain("cost cap");
    expect(summary.usage.costUsd).toBeCloseTo(0.0315, 6);
  });

  it("a context-overflow error forces a compaction and one retry", async () => {
    h = await harness({
      files: loginProject,
      script: [],
      fastScript: [
        when((r) => JSON.stringify(r.system).includes("title"), reply.text("Title")),
        reply.text("Summary: the user asked about files."),
      ],
    });
    h.model.push(reply.text("first"));
    await h.session.run("first question");
    h.model.push(reply.text("second"));
    await h.session.run("second question");
    h.model.push(
      reply.error("contextOverflow", "prompt is too long"),
      reply.text("after compaction"),
    );
    const summary = await h.session.run("third question");
    expect(summary.outcome).toBe("completed");
    h.recorder.expectSubsequence([
      "compactionStarted",
      "compacted",
      { type: "turnFinished", outcome: "completed" },
    ]);
    const retried = h.model.requests.at(-1);
    expect(JSON.stringify(retried?.messages[0])).toContain("Summary: the user asked about files.");
  });
});
