import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { COLOR_SET, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

describe("interactive zeng in a terminal", () => {
  it("runs a turn with an approval answered by keys, cycles the mode, rewinds and survives a resize", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "node --version" })),
      main(reply.text("## Done\n\nThe **tests** ran.", { usage: { input: 3000, output: 50 } })),
    );
    const pane = tui.pane(w);
    await pane.waitFor("type a message");
    pane.type("run the tests");
    await pane.waitFor("› run the tests");
    pane.keys("Enter");
    const card = await pane.waitFor("Always allow in this chat");
    expect(card).toContain("Allow once");
    expect(pane.styledScreen()).toMatch(COLOR_SET);
    expect(card).toMatch(/Always allow in this chat: Bash\(node/);
    pane.keys("2");
    // The turn's end and the status bar's figures are two renders: wait for both.
    const tokens = /\d+ in \/ \d+ out tokens/;
    const done = await pane.waitFor((s) => s.includes("── completed") && tokens.test(s));
    expect(done).toContain("Done");
    expect(done).toContain("tests ran");
    pane.keys("BTab");
    await pane.waitFor("acceptEdits");
    pane.keys("Escape");
    await pane.waitFor("Esc again to rewind");
    pane.keys("Escape");
    await pane.waitFor("Rewind: pick the message");
    pane.keys("Enter");
    await pane.waitFor("restore what?");
    pane.keys("2");
    const rewound = await pane.waitFor("Rewound conversation");
    expect(rewound).toContain("› run the tests");
    pane.resize(60, 20);
    pane.type(" again");
    const resized = await pane.waitFor("run the tests again");
    for (const line of resized.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
  }, 120_000);
});
