import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const TALL = { width: 100, height: 40 };

describe("zeng --resume's picker and the resumed view", () => {
  it("leaves empty sessions out, and the resumed view has the tool calls and the picker's message count", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "echo from-the-tool" })),
      main(reply.text("The tool said hello.")),
    );
    const ran = await w.run(["-p", "run the tool", "--permission-mode", "bypass"]);
    expect(ran.code).toBe(0);
    // A session opened and left without a prompt: stored, and empty.
    const first = tui.pane(w, [], {}, TALL);
    await first.waitFor("type a message");
    first.keys("C-c");
    first.keys("C-c");
    await first.waitFor(() => first.dead());
    await first.kill();
    const stored = await readdir(join(w.env.ZENGINE_HOME as string, "sessions"));
    expect(stored).toHaveLength(2);
    const pane = tui.pane(w, ["--resume"], {}, TALL);
    const picker = await pane.waitFor(/\(\d+ messages\)/);
    const entries = picker.split("\n").filter((l) => /\(\d+ messages\)/.test(l));
    expect(entries).toHaveLength(1);
    expect(entries[0]).not.toContain("(0 messages)");
    const count = /\((\d+) messages\)/.exec(entries[0] ?? "")?.[1];
    pane.keys("Enter");
    const resumed = await pane.waitFor("── resumed:");
    expect(resumed).toContain(`(${count} messages)`);
    expect(resumed).toMatch(/Bash echo from-the-tool/);
    expect(resumed).toContain("from-the-tool");
    expect(resumed).toContain("The tool said hello.");
  }, 90_000);
});
