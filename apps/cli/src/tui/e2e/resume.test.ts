import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "../../e2e/cli.test.helpers.js";
import { type Pane, zengPane } from "./tmux.test.helpers.js";

let w: World | undefined;
let pane: Pane | undefined;
afterEach(async () => {
  await pane?.kill();
  pane = undefined;
  await w?.dispose();
  w = undefined;
}, 30_000);

const TALL = { width: 100, height: 40 };

describe("zeng --resume's picker and the resumed view", () => {
  it("leaves empty sessions out, and the resumed view has the tool calls and the picker's message count", async () => {
    w = await world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "echo from-the-tool" })),
      main(reply.text("The tool said hello.")),
    );
    const ran = await w.run(["-p", "run the tool", "--permission-mode", "bypass"]);
    expect(ran.code).toBe(0);
    // A session opened and left without a prompt: stored, and empty.
    pane = zengPane(w, [], {}, TALL);
    await pane.waitFor("type a message");
    pane.keys("C-c");
    pane.keys("C-c");
    await pane.waitFor(() => pane?.dead() === true);
    await pane.kill();
    const stored = await readdir(join(w.env.ZENGINE_HOME as string, "sessions"));
    expect(stored).toHaveLength(2);
    pane = zengPane(w, ["--resume"], {}, TALL);
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
