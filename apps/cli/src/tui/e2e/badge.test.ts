import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main, type World } from "../../e2e/cli.test.helpers.js";
import { tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

const REASON = "npm test ran through Bash after the change; run it with Verify to record it";

/** The walkthrough's fix, then the test through plain Bash: a passing run that is not evidence. */
function fixThenBash(w: World) {
  const path = w.repo.path("src/auth/token.js");
  w.provider.push(
    main(reply.toolCall("Read", { file_path: path })),
    main(
      reply.toolCall("Edit", {
        file_path: path,
        old_string: "now > token.expiresAt",
        new_string: "now >= token.expiresAt",
      }),
    ),
    main(reply.toolCall("Bash", { command: "npm test" })),
    main(reply.text("The test passes.")),
  );
}

describe("the badge after a check ran through Bash", () => {
  it("the TUI's turn line says it ran through Bash and that Verify records it", async () => {
    const w = await tui.world({ format: "anthropic" });
    fixThenBash(w);
    const pane = tui.pane(w, ["--permission-mode", "bypass"], {}, { width: 160, height: 40 });
    await pane.waitFor("type a message");
    pane.type("fix the login test");
    await pane.waitFor("› fix the login test");
    pane.keys("Enter");
    const done = await pane.waitFor("── completed");
    expect(done).toContain(REASON);
    expect(done).toContain("Unverified");
  }, 60_000);

  it("zeng -p's result says so too", async () => {
    const w = await tui.world({ format: "anthropic" });
    fixThenBash(w);
    const ran = await w.run([
      "-p",
      "fix the login test",
      "--permission-mode",
      "bypass",
      "--output-format",
      "json",
    ]);
    expect(ran.stdout).toContain(REASON);
  }, 60_000);
});
