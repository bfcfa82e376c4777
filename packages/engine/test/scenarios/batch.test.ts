import { afterEach, describe, expect, it } from "vitest";
import type { ApprovalDecision } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { defineTool, textOutput } from "@z-engine/tools";
import { z } from "zod";
import { type Harness, harness, loginProject, waitForCount, resultsOf } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("the tool batch", () => {
  it("parses each call's input once, in the gate, and hands the parsed value to the tool", async () => {
    const raws: unknown[] = [];
    const seen: string[] = [];
    const double = defineTool({
      name: "Double",
      description: "Doubles a number.",
      inputSchema: z.strictObject({ n: z.number() }).transform((v) => {
        raws.push(v);
        return { n: v.n * 2 };
      }),
      action: async (input) => {
        seen.push(`action ${input.n}`);
        return [{ kind: "none" }];
      },
      title: (input) => `Double ${input.n}`,
      call: async (input) => {
        seen.push(`call ${input.n}`);
        return textOutput(String(input.n));
      },
    });
    h = await harness({ files: loginProject, script: [], engine: { tools: [double] } });
    h.model.push(reply.toolCall("Double", { n: 21 }), reply.text("done"));
    expect((await h.session.run("double it")).outcome).toBe("completed");
    expect(raws).toEqual([{ n: 21 }]);
    expect(seen).toEqual(["action 42", "call 42"]);
    const started = h.recorder.ofType("toolStarted")[0];
    // Events show the input as the model sent it, and the title of the parsed value.
    expect(started).toMatchObject({ input: { n: 21 }, title: "Double 42" });
    expect(JSON.stringify(h.model.requests[1]?.messages.at(-1))).toContain('"text":"42"');
  });

  it("takes an answer a host sends as soon as it sees the first ask of a batch", async () => {
    // The harness answers each approvalRequested in a microtask, while the engine may still be
    // recording the batch's later asks: every wait must already be registered by then.
    h = await harness({
      files: loginProject,
      script: [],
      approve: () => ({ type: "allowOnce" }),
    });
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      reply.toolCalls([
        { name: "Write", input: { file_path: p("a.txt"), content: "a" } },
        { name: "Write", input: { file_path: p("b.txt"), content: "b" } },
        { name: "Bash", input: { command: "touch c.txt" } },
      ]),
      reply.text("done"),
    );
    expect((await h.session.run("write three files")).outcome).toBe("completed");
    expect(h.recorder.ofType("approvalResolved").map((e) => e.decision.type)).toEqual([
      "allowOnce",
      "allowOnce",
      "allowOnce",
    ]);
    expect(await h.repo.read("b.txt")).toBe("b");
    expect(h.recorder.ofType("notice").filter((n) => n.message.includes("no pending"))).toEqual([]);
  });

  it("requests every ask of a batch together and takes answers in any order", async () => {
    h = await harness({ files: loginProject, script: [] });
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      reply.toolCalls([
        { name: "Write", input: { file_path: p("a.txt"), content: "a" } },
        { name: "Write", input: { file_path: p("b.txt"), content: "b" } },
        { name: "Bash", input: { command: "touch c.txt" } },
      ]),
      reply.text("done"),
    );
    const ended = h.session.run("write three files");
    await waitForCount(h, "approvalRequested", 3);
    const requests = h.recorder.ofType("approvalRequested");
    expect(new Set(requests.map((r) => r.approvalId)).size).toBe(3);
    // No call ran while any answer was missing.
    expect(h.recorder.ofType("toolStarted")).toHaveLength(0);
    const answers: ApprovalDecision[] = [
      { type: "allowOnce" },
      { type: "deny", feedback: "not b, please" },
      { type: "allowOnce" },
    ];
    for (const i of [2, 0, 1]) {
      const request = requests[i];
      if (request)
        h.session.send({
          type: "resolveApproval",
          approvalId: request.approvalId,
          decision: answers[i] as ApprovalDecision,
        });
    }
    const summary = await ended;
    expect(summary.outcome).toBe("completed");
    const results = resultsOf(h, 1);
    expect(results.map((r) => r.isError)).toEqual([false, true, false]);
    expect(JSON.stringify(results[1])).toContain("not b, please");
    expect(await h.repo.read("a.txt")).toBe("a");
    await expect(h.repo.read("b.txt")).rejects.toThrow();
    expect(await h.repo.read("c.txt")).toBe("");
  });

  it("runs neighbouring read-only calls together and a write alone, results in call order", async () => {
    h = await harness({
      files: { ...loginProject, "one.txt": "1\n", "two.txt": "2\n" },
      script: [],
      overrides: { mode: "acceptEdits" },
    });
    const p = (x: string) => (h as Harness).repo.path(x);
    h.model.push(
      reply.toolCalls([
        { name: "Read", input: { file_path: p("one.txt") } },
        { name: "Read", input: { file_path: p("two.txt") } },
        { name: "Write", input: { file_path: p("three.txt"), content: "3\n" } },
        { name: "Read", input: { file_path: p("three.txt") } },
      ]),
      reply.text("done"),
    );
    await h.session.run("read and write");
    const order = h.recorder
      .events()
      .flatMap((e) =>
        e.type === "toolStarted" || e.type === "toolFinished"
          ? [
              `${e.type === "toolStarted" ? "start" : "end"}:${(e as { toolName: string }).toolName}`,
            ]
          : [],
      );
    expect(order.slice(0, 2)).toEqual(["start:Read", "start:Read"]);
    expect(order.indexOf("start:Write")).toBeGreaterThan(order.lastIndexOf("end:Read", 3));
    expect(order.indexOf("start:Write") + 1).toBe(order.indexOf("end:Write"));
    const results = resultsOf(h, 1);
    expect(results).toHaveLength(4);
    expect(JSON.stringify(results[3])).toContain("3");
    expect(results.every((r) => !r.isError)).toBe(true);
  });

  it("answers unknown tools, malformed JSON and invalid input with error results", async () => {
    h = await harness({ files: loginProject, script: [], overrides: { mode: "bypass" } });
    h.model.push(
      reply.toolCalls([
        { name: "Teleport", input: {} },
        { name: "Read", input: {}, rawInput: '{"file_path": ' },
        { name: "Read", input: { path: "x" } },
      ]),
      reply.text("ok"),
    );
    const summary = await h.session.run("try odd calls");
    expect(summary.outcome).toBe("completed");
    const results = resultsOf(h, 1);
    expect(results.map((r) => r.isError)).toEqual([true, true, true]);
    expect(JSON.stringify(results[0])).toContain('Unknown tool \\"Teleport\\"');
    expect(JSON.stringify(results[2])).toContain("file_path");
  });

  it("denies asks in headless mode with the reason, and the turn still ends cleanly", async () => {
    h = await harness({ files: loginProject, script: [], engine: { headless: true } });
    h.model.push(
      reply.toolCall("Bash", { command: "rm -rf build" }),
      reply.text("I could not run it."),
    );
    const summary = await h.session.run("clean");
    expect(summary.outcome).toBe("completed");
    h.recorder.expectSubsequence([
      { type: "approvalRequested", toolName: "Bash" },
      {
        type: "approvalResolved",
        by: "headless",
        decision: { type: "deny" },
        reason: "no one to ask in headless mode",
      },
      { type: "toolFinished", status: "denied" },
    ]);
    // One prompt, then exit: the title is the prompt's first line, without a model request.
    await expect(h.recorder.waitFor("titleChanged")).resolves.toMatchObject({ title: "clean" });
    expect(h.fast.requests).toHaveLength(0);
  });
});
