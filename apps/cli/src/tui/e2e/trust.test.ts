import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { loginProject, main, type World } from "../../e2e/cli.test.helpers.js";
import { linesWith, requestText, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const TALL = { width: 100, height: 40 };
const trustFile = (w: World) => join(w.env.ZENGINE_HOME as string, "trust.json");

describe("trust in a terminal", () => {
  it("the trust card keeps what was typed in the input, and Enter on it only answers it", async () => {
    const w = await tui.world({
      format: "anthropic",
      files: {
        ...loginProject,
        ".z-engine/settings.toml": '[permissions]\nallow = ["Bash(node --version)"]\n',
      },
    });
    w.provider.push(main(reply.text("Hello back.")));
    const pane = tui.pane(w, [], {}, TALL);
    // Typed as zeng starts: before the card shows, or as it shows.
    pane.type("hello there");
    await pane.waitFor((s) => s.includes("Do you trust") && s.includes("› hello there"));
    pane.type(" again");
    await pane.waitFor("› hello there again");
    pane.keys("Enter");
    const answered = await pane.waitFor("is trusted; its project settings now apply");
    expect(answered).not.toContain("Do you trust");
    expect(answered).toContain("› hello there again");
    // The terminal's echo of what was typed as zeng started leaves no copy above the screen.
    expect(linesWith(pane.history(), "hello there")).toBe(1);
    expect(w.mainRequests()).toHaveLength(0);
    pane.keys("Enter");
    const done = await pane.waitFor("── completed");
    expect(done).toContain("Hello back.");
    expect(requestText(w, 0)).toContain("hello there again");
  }, 60_000);

  it("always allow in an untrusted folder says it needs trust; a chat rule leaves no .z-engine/, the saved one trusts first", async () => {
    // No test check: once trusted, the default (auto) verification would ask to run it.
    const w = await tui.world({ format: "anthropic", files: { "README.md": "# notes\n" } });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "touch first.txt" })),
      main(reply.toolCall("Bash", { command: "mkdir -p second" })),
      main(reply.text("Both made.")),
    );
    const pane = tui.pane(w, [], {}, TALL);
    pane.type("make two things");
    await pane.waitFor("› make two things");
    pane.keys("Enter");
    const first = await pane.waitFor("Allow Bash touch first.txt?");
    expect(first).toContain("3. Trust this folder and always allow in it:");
    expect(first).toContain("(saving a rule needs trust)");
    pane.keys("2");
    const second = await pane.waitFor("Allow Bash mkdir -p second?");
    expect(existsSync(join(w.repo.root, "first.txt"))).toBe(true);
    expect(existsSync(join(w.repo.root, ".z-engine"))).toBe(false);
    expect(existsSync(trustFile(w))).toBe(false);
    expect(second).toContain("(saving a rule needs trust)");
    pane.keys("3");
    await pane.waitFor("── completed");
    const saved = await readFile(join(w.repo.root, ".z-engine", "settings.local.toml"), "utf8");
    expect(saved).toContain("Bash(mkdir");
    const trust = JSON.parse(await readFile(trustFile(w), "utf8"));
    expect(trust.folders).toEqual([expect.objectContaining({ path: w.repo.root })]);
  }, 60_000);
});
