import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { ModelRequest, ToolResultBlock } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness } from "../harness.js";

// Issue 46: a cap on subagents running at once, and the depth limit, as settings.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const MARKER = "MARKER-WORKER: you run one command.";
const files = {
  "src/a.ts": "export const a = 1;\n",
  ".claude/agents/worker.md": `---\nname: worker\ndescription: Runs a command\n---\n${MARKER}\n`,
};
const isSub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARKER);
const isMain = (r: ModelRequest) => !isSub(r);
const text = (b: ToolResultBlock | undefined) =>
  (b?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
/** The tool results the main agent's `n`-th request carries (subagents' requests interleave). */
const mainResults = (hh: Harness, n: number) =>
  (hh.model.requests.filter(isMain)[n]?.messages.at(-1)?.content ?? []).filter(
    (b): b is ToolResultBlock => b.type === "toolResult",
  );
const agent = (background: boolean) =>
  reply.toolCall("Agent", {
    description: background ? "bg" : "fg",
    prompt: "run it",
    subagent_type: "worker",
    ...(background ? { run_in_background: true } : {}),
  });

describe("subagent limits", () => {
  it("refuses a spawn over [agents] max_concurrent with the reason, and starts it once a slot is free", async () => {
    h = await harness({
      files,
      script: [],
      userSettings: "[agents]\nmax_concurrent = 1\n",
      overrides: { mode: "bypass" },
    });
    const release = h.repo.path("release");
    h.model.push(
      when(isMain, agent(true)),
      when(isMain, agent(false)),
      when(isMain, reply.text("one at a time")),
      // The background worker holds its slot until the test releases it.
      when(
        isSub,
        reply.toolCall("Bash", { command: `while [ ! -f "${release}" ]; do sleep 0.05; done` }),
      ),
      when(isSub, reply.text("bg done")),
    );
    expect((await h.session.run("go")).outcome).toBe("completed");
    expect(text(mainResults(h, 2)[0])).toBe(
      "Not started: 1 subagents are running, the most this session runs at once ([agents] max_concurrent = 1). Wait for one to finish (JobOutput for background ones), then start this one.",
    );
    expect(existsSync(release)).toBe(false);
    await writeFile(release, "");
    await h.recorder.waitFor("jobUpdated", { job: { status: "completed" } });
    h.model.push(
      when(isMain, agent(false)),
      when(isSub, reply.text("fg done")),
      when(isMain, reply.text("both ran")),
    );
    expect((await h.session.run("again")).outcome).toBe("completed");
    expect(text(mainResults(h, 4)[0])).toContain("fg done");
  });

  it("[agents] max_depth bounds nesting: at 1 a subagent gets no Agent tool; at 2 it does", async () => {
    for (const [depth, offered] of [
      [1, false],
      [2, true],
    ] as const) {
      h = await harness({
        files,
        script: [
          when(isMain, agent(false)),
          when(isSub, reply.text("done")),
          when(isMain, reply.text("ok")),
        ],
        userSettings: `[agents]\nmax_depth = ${depth}\n`,
      });
      await h.session.run("go");
      const sub = h.model.requests.find(isSub);
      expect((sub?.tools ?? []).some((t) => t.name === "Agent")).toBe(offered);
      await h.dispose();
      h = undefined;
    }
  });
});
