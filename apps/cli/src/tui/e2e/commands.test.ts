import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { IDLE, linesWith, requestText, submit, tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const TALL = { width: 100, height: 40 };

describe("the UI's commands", () => {
  it("/help lists the catalog and the keys; an unknown command names the closest ones", async () => {
    const w = await tui.world({ format: "anthropic" });
    const pane = tui.pane(w, [], {}, TALL);
    // Typed at once, before the session (and its catalog) has loaded: answered when it has.
    await submit(pane, "/help");
    await pane.waitFor((s) => s.includes("Ctrl+C cancel, twice to exit") && s.includes(IDLE));
    const help = pane.history();
    expect(linesWith(help, "Commands:")).toBe(1);
    expect(help).toMatch(/\/clear\s+Start a new session/);
    expect(help).toMatch(/\/cost\s+/);
    expect(help).toContain("Esc Esc rewind ·");
    await submit(pane, "/claer");
    const unknown = await pane.waitFor("Unknown command /claer.");
    expect(unknown).toMatch(/Did you mean [^\n]*\/clear/);
    expect(w.mainRequests()).toHaveLength(0);
  }, 60_000);

  it("! runs a shell command whose output joins the conversation; /clear starts anew and /resume offers the old one", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(main(reply.text("Noted the output.")));
    const pane = tui.pane(w, ["--permission-mode", "bypass"], {}, TALL);
    await submit(pane, "!echo bash-mode-$((6*7))");
    await pane.waitFor((s) => s.includes("bash-mode-42") && s.includes(IDLE));
    await submit(pane, "what did it print?");
    await pane.waitFor("Noted the output.");
    expect(requestText(w, 0)).toContain("bash-mode-42");
    await submit(pane, "/clear");
    const cleared = await pane.waitFor((s) =>
      s.includes("New session (the last one: zeng --resume ses_"),
    );
    const old = /zeng --resume (ses_[\w-]+)/.exec(cleared)?.[1];
    expect(cleared).not.toContain("Noted the output.");
    await submit(pane, "/resume");
    const picker = await pane.waitFor("Resume which session?");
    expect(picker).toContain("(2 messages)");
    pane.keys("Enter");
    const resumed = await pane.waitFor((s) => s.includes("Resumed (the last one: zeng --resume"));
    expect(resumed).toContain("Noted the output.");
    expect(old).toBeDefined();
  }, 60_000);
});
