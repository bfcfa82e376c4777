import { readFile } from "node:fs/promises";
import type { ModelRequest } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { decisionModel, NEW_TASK } from "../decision-model.js";
import { type Harness, harness } from "../harness.js";

// task_view: when On, a new task sets earlier exchanges aside from what the model reads (a
// `taskView` record, `taskViewApplied`), the transcript keeps them, a reopened session
// rebuilds the same working set, and includeFullHistory brings them back. Shadow traces
// without applying. The view never drops the new request or the newest exchanges.

/** An earlier exchange's request, long enough that the history passes the view's floor. */
const earlier = (topic: string) => `Tell me about ${topic}. ${"Some detail. ".repeat(150)}`;
const TOPICS = ["OLD-TOPIC-ZERO", "OLD-TOPIC-ONE", "OLD-TOPIC-TWO"];

function settings(mode: "on" | "shadow" | "off"): string {
  return [
    "[decisions]",
    "timeout_ms = 2000",
    "[experimental]",
    `decisions_task_view = "${mode}"`,
  ].join("\n");
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const sent = (r: ModelRequest | undefined) => JSON.stringify(r?.messages ?? []);

async function withHistory(mode: "on" | "shadow" | "off") {
  h = await harness({
    files: { "README.md": "# demo\n" },
    script: Array.from({ length: 8 }, (_, i) => reply.text(`answer ${i}`)),
    userSettings: settings(mode),
    fastClient: decisionModel("eager"),
  });
  for (const topic of TOPICS) await h.session.run(earlier(topic));
  const summary = await h.session.run(`${NEW_TASK} write a haiku about rain`);
  return { h, summary };
}

describe("task_view", { timeout: 60_000 }, () => {
  it("On: sets aside the offered exchanges, keeps the newest and the request, and records it", async () => {
    const { h, summary } = await withHistory("on");
    expect(summary.outcome).toBe("completed");
    const views = h.recorder.ofType("taskViewApplied");
    expect(views).toHaveLength(1);
    expect(views[0]?.view).toMatchObject({ restored: false, setAside: 1 });
    const last = sent(h.model.requests.at(-1));
    // Exchange 0 is set aside (only the index names it); the two newest (hard keeps) and
    // the new request stay.
    expect(last).not.toContain("answer 0");
    expect(last).not.toContain(earlier("OLD-TOPIC-ZERO").slice(0, 200));
    expect(last).toContain("OLD-TOPIC-ONE");
    expect(last).toContain("OLD-TOPIC-TWO");
    expect(last).toContain("write a haiku about rain");
    expect(last).toContain("[Task view]");
    expect(last).toContain(views[0]?.view.artifact ?? "none");
    // The transcript keeps everything; the log holds the record.
    const log = await readFile(h.session.logPath, "utf8");
    expect(log).toContain("OLD-TOPIC-ZERO");
    expect(log).toContain('"kind":"taskView"');
  });

  it("a reopened session rebuilds the same working set, and includeFullHistory brings all back", async () => {
    const { h } = await withHistory("on");
    const id = h.session.id;
    await h.session.close();
    const again = await h.engine.openSession(id);
    await again.run("and one more line");
    expect(sent(h.model.requests.at(-1))).not.toContain("answer 0");
    expect(sent(h.model.requests.at(-1))).toContain("[Task view]");
    again.send({ type: "includeFullHistory" });
    await again.idle();
    await again.run("and the last line");
    const last = sent(h.model.requests.at(-1));
    expect(last).toContain("answer 0");
    expect(last).toContain(earlier("OLD-TOPIC-ZERO").slice(0, 200));
    expect(last).not.toContain("[Task view]");
    expect(h.recorder.ofType("taskViewApplied").at(-1)?.view).toMatchObject({ restored: true });
    await again.close();
  });

  it("Shadow and Off send the whole history; Shadow traces what it would have set aside", async () => {
    for (const mode of ["shadow", "off"] as const) {
      const { h } = await withHistory(mode);
      expect(h.recorder.ofType("taskViewApplied")).toEqual([]);
      expect(sent(h.model.requests.at(-1))).toContain("answer 0");
      if (mode === "shadow") {
        const trace = await h.recorder.waitFor("decisionTraced", {
          trace: { use: "task_view", outcome: "advice" },
        });
        expect(trace.trace.applied).toBe(false);
      }
      await h.dispose();
    }
    h = undefined;
  });
});
