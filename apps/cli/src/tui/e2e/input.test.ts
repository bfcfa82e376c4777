import { mkdir, writeFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { requestText, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

describe("interactive zeng's input in a terminal", () => {
  it("completes / from the session's catalog: a custom .claude/commands file and an engine built-in", async () => {
    const w = await tui.world({ format: "anthropic" });
    await mkdir(w.repo.path(".claude/commands"), { recursive: true });
    await writeFile(
      w.repo.path(".claude/commands/xplain.md"),
      "---\ndescription: Explain the code in plain words\nargument-hint: <file>\n---\nExplain $ARGUMENTS simply.\n",
    );
    w.provider.push(main(reply.text("It checks expiry.")));
    const pane = tui.pane(w);
    await pane.waitFor("type a message");
    pane.type("/xp");
    const offered = await pane.waitFor("Explain the code in plain words");
    expect(offered).toMatch(/\/xplain +<file> +Explain the code/);
    pane.keys("Tab");
    await pane.waitFor("› /xplain ");
    pane.type("src/auth/token.js");
    await pane.waitFor("› /xplain src/auth/token.js");
    pane.keys("Enter");
    await pane.waitFor("── completed");
    expect(requestText(w, 0)).toContain("Explain src/auth/token.js simply.");
    // An engine built-in answers on the screen without the model.
    pane.type("/cos");
    await pane.waitFor("Show the session's token use and cost");
    pane.keys("Enter");
    const cost = await pane.waitFor("Cache write:");
    expect(cost).toContain("/cost");
    expect(w.mainRequests()).toHaveLength(1);
  }, 120_000);

  it("takes a bracketed paste whole: shown collapsed, not sent, and the full text goes out with Enter", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(main(reply.text("Read all 30 lines.")));
    const pane = tui.pane(w);
    await pane.waitFor("type a message");
    pane.type("summarize: ");
    await pane.waitFor("› summarize:");
    const lines = Array.from({ length: 30 }, (_, i) => `log line ${i + 1}`);
    pane.paste(lines.join("\n"));
    const shown = await pane.waitFor("› summarize: [pasted 30 lines]");
    expect(shown).not.toContain("log line 30");
    expect(shown).not.toContain("working…");
    expect(w.mainRequests()).toHaveLength(0);
    pane.keys("Enter");
    await pane.waitFor("Read all 30 lines.");
    expect(requestText(w, 0)).toContain(
      JSON.stringify(`summarize: ${lines.join("\n")}`).slice(1, -1),
    );
  }, 120_000);
});
