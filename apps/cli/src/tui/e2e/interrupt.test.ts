import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { COLOR_SET, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

describe("interactive zeng while a turn runs", () => {
  it("steers with typed text, interrupts with Esc, and leaves with Ctrl+C twice", async () => {
    const w = await tui.world({ format: "anthropic" });
    // The provider sends its headers, then nothing until the client leaves.
    w.provider.push(main({ ...reply.text("never shown"), fault: { stall: true, afterEvents: 1 } }));
    const pane = tui.pane(w, ["start the work"], { NO_COLOR: "1" });
    await pane.waitFor("working… (Esc to interrupt)");
    // NO_COLOR: bold and dim may stay, no foreground or background colour is set.
    expect(pane.styledScreen()).not.toMatch(COLOR_SET);
    pane.type("also check the docs");
    await pane.waitFor("› also check the docs");
    pane.keys("Enter");
    await pane.waitFor("↳ also check the docs");
    pane.keys("Escape");
    const ended = await pane.waitFor("── cancelled");
    expect(ended).toContain("› start the work");
    pane.keys("C-c");
    await pane.waitFor("Ctrl+C again to exit");
    pane.keys("C-c");
    const last = await pane.waitFor(
      (s) => s.includes("zeng --resume ses_") && pane?.dead() === true,
    );
    expect(last).toContain("zeng --resume ses_");
  }, 120_000);
});
