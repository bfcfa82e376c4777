import { appendFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { readSessionView } from "../../src/index.js";
import { type Harness, harness, loginProject } from "../harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("readSessionView", () => {
  it("gives the conversation without tool results, after a rewind, and counts damaged lines", async () => {
    h = await harness({
      files: loginProject,
      script: [
        reply.toolCall("Read", { file_path: "package.json" }),
        reply.text("It is an npm project."),
        reply.text("Second answer."),
      ],
      overrides: { mode: "plan" },
    });
    await h.session.run("what is this?");
    await h.session.run("and then?");
    const before = await readSessionView(h.session.logPath);
    expect(before.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "what is this?"],
      ["assistant", "It is an npm project."],
      ["user", "and then?"],
      ["assistant", "Second answer."],
    ]);
    expect(before.mode).toBe("plan");
    const second = h.recorder.ofType("turnStarted")[1]?.userMessageId;
    if (!second) throw new Error("no second turn");
    h.session.send({ type: "rewind", messageId: second, restore: "conversation" });
    await h.session.idle();
    await appendFile(h.session.logPath, "{not json\n");
    const after = await readSessionView(h.session.logPath);
    expect(after.messages.map((m) => m.text)).toEqual(["what is this?", "It is an npm project."]);
    expect(after.damagedLines).toBe(1);
    expect(after.totalUsage.input).toBeGreaterThanOrEqual(before.totalUsage.input);
  });

  it("rejects for a log that does not exist", async () => {
    await expect(readSessionView("/nonexistent/log.jsonl")).rejects.toThrow();
  });
});
