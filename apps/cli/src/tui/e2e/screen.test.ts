import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { historyWith, linesWith, STATUS, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const PLACEHOLDER = "type a message";

describe("the live area leaves no copies in the scrollback", () => {
  it("at a turn start whose answer is taller than the screen: every line once, the input once", async () => {
    const w = await tui.world({ format: "anthropic" });
    const lines = Array.from({ length: 30 }, (_, i) => `Answer line ${i + 1}.`);
    w.provider.push(
      main({ ...reply.text(lines.join("\n")), delayMs: 2, wire: { textChunkChars: 20 } }),
    );
    const pane = tui.pane(w, [], {}, { width: 60, height: 20 });
    await pane.waitFor(PLACEHOLDER);
    pane.type("first line of a prompt long enough to wrap in the box");
    pane.keys("C-j");
    pane.type("and a second line");
    await pane.waitFor("and a second line");
    pane.keys("Enter");
    await pane.waitFor(
      (s) => s.includes("── completed") && s.includes(PLACEHOLDER) && s.includes(STATUS),
    );
    const history = await historyWith(pane, { [STATUS]: 1, [PLACEHOLDER]: 1 });
    for (const line of lines) expect(linesWith(history, line)).toBe(1);
    expect(linesWith(history, STATUS)).toBe(1);
    expect(linesWith(history, PLACEHOLDER)).toBe(1);
    expect(linesWith(history, "working…")).toBe(0);
  }, 60_000);

  it("after Backspace in a multi-line input: it deletes backwards, lines merge, no copies", async () => {
    const w = await tui.world({ format: "anthropic" });
    const pane = tui.pane(w, [], {}, { width: 80, height: 24 });
    await pane.waitFor(PLACEHOLDER);
    pane.type("one");
    pane.keys("C-j");
    pane.type("two");
    pane.keys("C-j");
    pane.type("three");
    await pane.waitFor("three");
    // Backspace sends DEL (0x7f); several in one read, as a held key does.
    pane.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace");
    await pane.waitFor((s) => s.includes("│   two") && !s.includes("thr"));
    pane.keys("BSpace", "BSpace", "BSpace", "BSpace");
    const merged = await pane.waitFor((s) => s.includes("│ › one ") && !s.includes("two"));
    expect(merged).not.toContain("│   ");
    pane.keys("Left", "BSpace");
    await pane.waitFor("│ › oe ");
    const history = await historyWith(pane, { [STATUS]: 1 });
    expect(linesWith(history, STATUS)).toBe(1);
    expect(linesWith(history, "╭")).toBe(2); // the welcome header and the input
  }, 60_000);

  it("after a resize to 60 columns and back: one input box, and lines fit the width", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(main(reply.text("A short answer.")));
    const pane = tui.pane(w, [], {}, { width: 120, height: 40 });
    await pane.waitFor(PLACEHOLDER);
    pane.type("hello");
    await pane.waitFor("› hello");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("── completed") && s.includes(PLACEHOLDER));
    pane.resize(60, 40);
    const narrow = await pane.waitFor(
      (s) =>
        s.includes(PLACEHOLDER) &&
        s.includes("A short answer.") &&
        s.split("\n").every((l) => l.length <= 60),
    );
    expect(linesWith(narrow, "A short answer.")).toBe(1);
    pane.resize(120, 40);
    // The transcript (the welcome box, the answer) is printed again before the live area: wait
    // for the input and the status line below it, or the capture can fall between the two.
    await pane.waitFor(
      (s) =>
        s.includes("A short answer.") &&
        s.includes(PLACEHOLDER) &&
        s.includes(STATUS) &&
        s.split("\n").some((l) => l.startsWith("╰") && l.length === 120),
    );
    // A capture can fall inside a redraw of the live area: take the history once it settles.
    const history = await historyWith(pane, {
      [STATUS]: 1,
      [PLACEHOLDER]: 1,
      "A short answer.": 1,
      "› hello": 1,
    });
    expect(linesWith(history, STATUS)).toBe(1);
    expect(linesWith(history, PLACEHOLDER)).toBe(1);
    expect(linesWith(history, "A short answer.")).toBe(1);
    expect(linesWith(history, "› hello")).toBe(1);
  }, 60_000);
});

describe("the welcome header and the status line", () => {
  it("shows the folder, git branch, model, mode, where the key comes from and two tips; then context left", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(main(reply.text("Hi.", { usage: { input: 150_000, output: 50_000 } })));
    const pane = tui.pane(w, [], {}, { width: 120, height: 30 });
    const header = await pane.waitFor((s) => s.includes("Z Engine") && s.includes(PLACEHOLDER));
    expect(header).toContain(`Z Engine ${w.repo.root} on main`);
    expect(header).toMatch(
      /model claude-sonnet-5-5 · ask mode · key: ZENGINE_API_KEY \(for 127\.0\.0\.1:\d+\)/,
    );
    expect(linesWith(header, "Tip:")).toBe(2);
    pane.type("hi");
    await pane.waitFor("› hi");
    pane.keys("Enter");
    // 200,000 of the model's 1,000,000-token window used: 80 % left.
    const done = await pane.waitFor(
      (s) => s.includes("── completed") && s.includes("context left"),
    );
    expect(done).toMatch(/\$\d+\.\d+ · 80% context left · No badge · claude-sonnet-5-5/);
  }, 60_000);
});
