import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { loginProject, main } from "../../e2e/cli.test.helpers.js";
import { requestText, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const TALL = { width: 80, height: 40 };

describe("interactive zeng's cards in a terminal", () => {
  it("asks for trust at start when the project's settings withhold things; trusting applies them", async () => {
    const w = await tui.world({
      format: "anthropic",
      files: {
        ...loginProject,
        ".z-engine/settings.toml": '[permissions]\nallow = ["Bash(node --version)"]\n',
      },
    });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "node --version" })),
      main(reply.text("Node runs.")),
    );
    const pane = tui.pane(w, [], {}, TALL);
    const card = await pane.waitFor("Do you trust");
    expect(card).toContain("permissions.allow");
    expect(card).toContain("1. Trust this folder");
    pane.keys("1");
    // The notice may wrap at 80 columns.
    await pane.waitFor("is trusted; its project settings now apply");
    expect(pane.screen()).not.toContain("Do you trust");
    const trust = JSON.parse(
      await readFile(join(w.env.ZENGINE_HOME as string, "trust.json"), "utf8"),
    );
    expect(trust.folders).toEqual([expect.objectContaining({ path: w.repo.root })]);
    // The project's allow rule now applies: the command runs without an approval card.
    pane.type("check node");
    await pane.waitFor("› check node");
    pane.keys("Enter");
    const done = await pane.waitFor("── completed");
    expect(done).toContain("Node runs.");
    expect(done).not.toContain("Allow once");
  }, 120_000);

  it("answers AskUserQuestion by keys: an option by arrows and Enter, a multi-select by digits", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(
      main(
        reply.toolCall("AskUserQuestion", {
          questions: [
            {
              question: "Which database?",
              header: "Storage",
              options: [{ label: "SQLite", description: "a file" }, { label: "Postgres" }],
              multiSelect: false,
            },
            {
              question: "Which extras?",
              header: "Extras",
              options: [{ label: "Backups" }, { label: "Metrics" }, { label: "Tracing" }],
              multiSelect: true,
            },
          ],
        }),
      ),
      main(reply.text("Postgres with extras it is.")),
    );
    const pane = tui.pane(w, ["set up storage"], {}, TALL);
    const first = await pane.waitFor("Storage: Which database?");
    expect(first).toContain("1. SQLite: a file");
    pane.keys("Down");
    await pane.waitFor("❯ 2. Postgres");
    pane.keys("Enter");
    await pane.waitFor("Extras: Which extras?");
    pane.keys("1");
    await pane.waitFor("[x] 1. Backups");
    pane.keys("3");
    await pane.waitFor("[x] 3. Tracing");
    pane.keys("Enter");
    const done = await pane.waitFor("── completed");
    expect(done).toContain("Postgres with extras it is.");
    const all = requestText(w, 1);
    const result = all.slice(all.indexOf("The user answered"));
    expect(result).toContain("Postgres");
    expect(result).toContain("Backups, Tracing");
    expect(result).not.toContain("Metrics");
  }, 120_000);

  it("reviews a plan: rejects with typed feedback, then approves the revision into acceptEdits", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(
      main(
        reply.toolCall("ExitPlanMode", { plan: "1. Add the **schema**\n2. Migrate everything" }),
      ),
      main(reply.toolCall("ExitPlanMode", { plan: "1. Add the **schema** only" })),
      main(reply.text("Plan approved, starting.")),
    );
    const pane = tui.pane(w, ["--permission-mode", "plan", "plan the storage"], {}, TALL);
    const first = await pane.waitFor("Plan for review");
    expect(first).toContain("Migrate everything");
    expect(first).toContain("3. Keep planning");
    pane.type("smaller, no migration");
    await pane.waitFor("✎ smaller, no migration");
    pane.keys("Enter");
    const second = await pane.waitFor(
      (s) => s.includes("Plan for review") && s.includes("schema only"),
    );
    expect(second).not.toContain("Migrate everything");
    expect(requestText(w, 1)).toContain("smaller, no migration");
    pane.keys("1");
    // The mode line is in the part Ink erases and redraws, so a capture taken between the
    // two shows the transcript without it: wait for a frame that has both.
    const done = await pane.waitFor(
      (s) => s.includes("── completed") && /acceptEdits \(⇧⇥\)/.test(s),
    );
    expect(done).toContain("Plan approved, starting.");
    expect(requestText(w, 2)).toContain("The user approved the plan");
  }, 120_000);
});
