import { reply } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { main } from "../../e2e/cli.test.helpers.js";
import { tuiFixture } from "./tmux.test.helpers.js";

const tui = tuiFixture();

describe("interactive zeng without a terminal", () => {
  it("reads prompts and card answers line by line and prints plain lines", async () => {
    const w = await tui.world({ format: "anthropic" });
    w.provider.push(
      main(reply.toolCall("Bash", { command: "node --version" })),
      main(reply.text("Node answered.")),
      main(reply.text("Second answer.")),
    );
    const child = w.spawn([]);
    child.child.stdin?.write("check node\n");
    await child.waitForLine((line) => line.startsWith("? Bash node --version"));
    child.child.stdin?.write("1\n");
    await child.waitForLine((line) => line.startsWith("── completed"));
    child.child.stdin?.end("and again\n/cost\n");
    const run = await child.done;
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("  1. Allow once");
    expect(run.stdout).toContain("Node answered.\n");
    expect(run.stdout).toContain("Second answer.\n");
    expect(run.stdout.match(/── completed/g)).toHaveLength(2);
    // An engine built-in answers with its markdown, without a model request.
    expect(run.stdout).toContain("**Cost:** $");
    expect(w.mainRequests()).toHaveLength(3);
    // No cursor movement or colour: these are plain lines.
    expect(run.stdout).not.toContain(String.fromCharCode(27));
  }, 120_000);
});
