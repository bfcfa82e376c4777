import { afterEach, describe, expect, it } from "vitest";
import { reply } from "@z-engine/testkit";
import { type Harness, harness, loginProject } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("session state", () => {
  it("takes model, effort and mode changes mid-turn from the next round on", async () => {
    h = await harness({ files: loginProject, script: [], overrides: { mode: "bypass" } });
    h.model.push(
      { ...reply.toolCall("Glob", { pattern: "*.json" }), delayMs: 30 },
      reply.text("done"),
    );
    const ended = h.session.run("look");
    await h.recorder.waitFor("assistantStarted");
    h.session.send({ type: "setModel", model: "other-model" });
    h.session.send({ type: "setEffort", effort: "high" });
    h.session.send({ type: "setMode", mode: "plan" });
    await ended;
    expect(h.model.requests[0]?.model).toBe("claude-sonnet-5-5");
    expect(h.model.requests[1]?.model).toBe("other-model");
    expect(h.model.requests[1]?.effort).toBe("high");
    h.recorder.expectSubsequence([
      { type: "modelChanged", model: "other-model" },
      { type: "effortChanged", effort: "high" },
      { type: "modeChanged", mode: "plan" },
    ]);
  });

  it("nudges the model when its todo list has open items and has not changed for ten rounds", async () => {
    h = await harness({ files: loginProject, script: [], overrides: { mode: "bypass" } });
    h.model.push(
      reply.toolCall("TodoWrite", {
        todos: [{ content: "Fix the test", status: "in_progress", activeForm: "Fixing the test" }],
      }),
    );
    for (let i = 0; i < 11; i++) h.model.push(reply.toolCall("Glob", { pattern: "*.json" }));
    h.model.push(reply.text("done"));
    await h.session.run("work");
    h.recorder.expectSubsequence([{ type: "todosUpdated", todos: [{ content: "Fix the test" }] }]);
    const nudged = h.model.requests
      .map((r) => JSON.stringify(r.messages.at(-1)))
      .findIndex((t) => t.includes("todo list has not been updated"));
    expect(nudged).toBe(11);
  });

  it("answers an invalid command with a notice and keeps going", async () => {
    h = await harness({ files: loginProject, script: [reply.text("hi")] });
    h.session.send({ type: "setMode", mode: "sideways" } as never);
    h.session.send({
      type: "resolveApproval",
      approvalId: "appr_none",
      decision: { type: "allowOnce" },
    } as never);
    const summary = await h.session.run("hello");
    expect(summary.outcome).toBe("completed");
    h.recorder.expectSubsequence([
      { type: "notice", code: "command.invalid" },
      { type: "notice", code: "approval.unknown" },
      "turnFinished",
    ]);
  });
});
