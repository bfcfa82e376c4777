import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { historyWith, linesWith, STATUS, submit, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const TALL = { width: 100, height: 40 };

describe("tool rows", () => {
  it("a failing test shows its failed assertion and counts; Ctrl+O unfolds every output and folds it back", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "npm test" })),
      main(reply.text("The login test fails.")),
    );
    const pane = tui.pane(w, ["--permission-mode", "bypass"], {}, TALL);
    await submit(pane, "run the tests");
    const row = await pane.waitFor(
      (s) => s.includes("── completed") && s.includes("type a message"),
    );
    expect(row).toContain("not ok 1 - login token expires at its expiry time");
    expect(row).toContain("Expected values to be strictly equal:");
    expect(row).toContain("# fail 1");
    expect(row).not.toContain("> node --test");
    expect(row).toMatch(/… \+\d+ lines \(ctrl\+o to expand\)/);
    expect(row).not.toContain("duration_ms");
    pane.keys("C-o");
    const full = await pane.waitFor(
      (s) => s.includes("# skipped 0") && s.includes("type a message"),
    );
    expect(full).toContain("duration_ms");
    expect(full).not.toContain("(ctrl+o to expand)");
    expect(full).toContain("every output whole (ctrl+o folds)");
    expect(linesWith(pane.history(), "not ok 1 - login token")).toBe(1);
    pane.keys("C-o");
    await pane.waitFor(
      (s) => s.includes("(ctrl+o to expand)") && s.includes("type a message") && s.includes(STATUS),
    );
    // Each way the transcript is printed again: no copy of the other form is left behind.
    const history = await historyWith(pane, { [STATUS]: 1, "not ok 1 - login token": 1 });
    expect(linesWith(history, "duration_ms")).toBe(0);
    expect(linesWith(history, "not ok 1 - login token")).toBe(1);
    expect(linesWith(history, STATUS)).toBe(1);
  }, 60_000);

  it("shows the feedback a deny gave the model", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "rm -rf build" })),
      main(reply.text("I will leave it.")),
    );
    const pane = tui.pane(w, [], {}, TALL);
    await submit(pane, "clean up");
    await pane.waitFor("Allow Bash rm -rf build?");
    pane.type("no, keep the build folder");
    await pane.waitFor("✎ no, keep the build folder");
    pane.keys("Enter");
    const done = await pane.waitFor("── completed");
    expect(done).toMatch(/⊘ Bash rm -rf build denied/);
    expect(done).toContain("↳ your feedback: no, keep the build folder");
  }, 60_000);

  it('says "interrupted by user" once', async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(main(reply.toolCall("Bash", { command: "sleep 30" })));
    const pane = tui.pane(w, ["--permission-mode", "bypass"], {}, TALL);
    await submit(pane, "wait a while");
    await pane.waitFor("Bash sleep 30");
    pane.keys("Escape");
    const ended = await pane.waitFor(
      (s) => s.includes("── cancelled") && s.includes("type a message"),
    );
    expect(linesWith(ended.toLowerCase(), "interrupted")).toBe(1);
    expect(ended).toContain("── cancelled: interrupted by user");
  }, 60_000);
});
