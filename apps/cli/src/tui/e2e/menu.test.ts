import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const NARROW = { width: 60, height: 30 };
/** The rows between the input box and the status line: the menu's, wrapped or not. */
const menuRows = (s: string) => {
  const lines = s.split("\n");
  const box = lines.findLastIndex((l) => l.startsWith("╰"));
  const status = lines.findIndex((l, i) => i > box && l.includes("(⇧⇥)"));
  return lines.slice(box + 1, status);
};
const menuLines = (s: string) => s.split("\n").filter((l) => /^[❯ ] \/[a-z]/.test(l));

describe("the / menu and /model in a terminal", () => {
  it("at 60 columns lists the catalog a page at a time without wrapping, scrolls with the arrows and filters as you type", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(main(reply.text("unused")));
    const pane = tui.pane(w, [], {}, NARROW);
    await pane.waitFor("type a message");
    pane.type("/");
    const first = await pane.waitFor(/↓ \d+ more/);
    expect(menuLines(first)).toHaveLength(8);
    // Eight entries and the "more" line: none wraps onto a second row.
    expect(menuRows(first)).toHaveLength(9);
    for (const line of first.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
    const more = Number(/↓ (\d+) more/.exec(first)?.[1]);
    expect(more).toBeGreaterThan(10);
    for (let i = 0; i < 8; i++) pane.keys("Down");
    const scrolled = await pane.waitFor(/↑ \d+ more/);
    expect(menuLines(scrolled)).toHaveLength(8);
    expect(menuLines(scrolled)).not.toEqual(menuLines(first));
    pane.type("perm");
    // The best match first, with its argument hint and description (a fuzzy filter keeps a few).
    const filtered = await pane.waitFor((s) => s.includes("› /perm") && !/↓ \d+ more/.test(s));
    expect(menuLines(filtered).length).toBeLessThanOrEqual(3);
    expect(menuLines(filtered)[0]).toMatch(/^❯ \/permissions +\[allow\|ask\|deny .+ Sho/);
  }, 60_000);

  it("/model lists the provider's models and refuses an unknown id with a notice", async () => {
    const w = await tui.world({ format: "anthropic" });
    const pane = tui.pane(w, [], {}, { width: 100, height: 40 });
    await pane.waitFor("type a message");
    pane.type("/model");
    await pane.waitFor("› /model");
    pane.keys("Enter");
    const listed = await pane.waitFor(
      (s) => s.includes("Models for anthropic:") && s.includes("• claude-haiku"),
    );
    expect(listed).toContain("• claude-opus-5");
    pane.type("/model gpt-nonexistent");
    await pane.waitFor("› /model gpt-nonexistent");
    pane.keys("Enter");
    const refused = await pane.waitFor('Unknown model "gpt-nonexistent" for anthropic');
    expect(refused).toContain("claude-sonnet-5-5");
    expect(w.mainRequests()).toHaveLength(0);
  }, 60_000);
});
