import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// `[model] review` (integrations-and-safety.md, roles): the review agent's model, and /review's.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const reviewCall = reply.toolCall("Agent", {
  description: "Review the change",
  prompt: "Review the working tree",
  subagent_type: "review",
});

describe("model.review", { timeout: 60_000 }, () => {
  it("runs the review agent and /review on the review model; others stay on the main model", async () => {
    h = await harness({
      files: { "README.md": "# readme\n" },
      script: [reviewCall, reply.text("no findings"), reply.text("the review is clean")],
      userSettings: '[model]\nmain = "main-model"\nreview = "review-model"\n',
      engine: { headless: true },
    });
    await h.session.run("review my change");
    expect(h.model.requests.map((r) => r.model)).toEqual([
      "main-model",
      "review-model",
      "main-model",
    ]);

    h.model.push(reply.text("reviewed"));
    const ran = await h.session.command("review", "");
    expect(ran.type).toBe("turn");
    expect(h.model.requests.at(-1)?.model).toBe("review-model");
  });

  it("unset, reviews follow the session's main model (after a model change too)", async () => {
    h = await harness({
      files: { "README.md": "# readme\n" },
      script: [],
      userSettings: '[model]\nmain = "main-model"\n',
      engine: { headless: true },
    });
    h.session.send({ type: "setModel", model: "chosen-model" });
    await h.session.idle();
    h.model.push(reviewCall, reply.text("no findings"), reply.text("clean"));
    await h.session.run("review my change");
    expect(h.model.requests.map((r) => r.model)).toEqual([
      "chosen-model",
      "chosen-model",
      "chosen-model",
    ]);
  });
});
