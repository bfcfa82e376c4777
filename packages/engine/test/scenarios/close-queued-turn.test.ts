import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// A host that closes right after a submit (the Agent SDK's host leaving its loop at the init
// message): the submit is still in the command chain when close starts, so its turn is queued
// after close dropped the queue. Close must not wait for it, and run() must not hang.
let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("closing a session right after a submit", () => {
  it("drops the queued turn: close resolves and run() answers that the turn never ran", async () => {
    h = await harness({ files: { "a.txt": "a\n" }, script: [reply.text("never")] });
    const run = h.session.run("hi");
    await h.session.close();
    const summary = await run;
    expect(summary).toMatchObject({ outcome: null, reason: expect.stringContaining("closed") });
    expect(h.model.requests).toHaveLength(0);
  });
});
