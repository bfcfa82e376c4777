import { existsSync } from "node:fs";
import { BubblewrapSandbox } from "@z-engine/host";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";
import { resultsOf, resultText } from "../mcp-support.js";

// Issue 38, item 18: the sandbox on in the settings but unable to run (here bwrap is a
// missing program) must not fail open: bypass mode and auto-allow fall back to asking.

const SANDBOX_ON = "[shell.sandbox]\nenabled = true\nauto_allow = true\n";
const missingBwrap = () => new BubblewrapSandbox({ bwrap: "/nonexistent/bin/bwrap" });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("a sandbox that cannot run", { timeout: 60_000 }, () => {
  it("headless in bypass mode: a command is denied with the reason, nothing runs unconfined", async () => {
    h = await harness({
      files: { "README.md": "# x\n" },
      userSettings: SANDBOX_ON,
      overrides: { mode: "bypass" },
      engine: { sandbox: missingBwrap(), headless: true },
      script: [
        reply.toolCalls([
          { name: "Bash", input: { command: "touch ran-unconfined" } },
          { name: "Write", input: { file_path: "notes.md", content: "edits need no sandbox\n" } },
        ]),
        reply.text("done"),
      ],
    });
    const notice = await h.recorder.waitFor("notice", { code: "session.setup" });
    expect(notice.message).toMatch(/sandbox is on in the settings but cannot run \(.*bwrap/);
    expect(notice.message).toContain("each one needs your approval");
    expect(notice.message).not.toContain("keep asking");
    await h.session.run("go");
    const [bash, write] = resultsOf(h, 1);
    expect(existsSync(h.repo.path("ran-unconfined"))).toBe(false);
    expect(bash?.isError).toBe(true);
    expect(resultText(bash)).toMatch(
      /^Permission denied: no one to ask in headless mode\. .*the sandbox is on in the settings but cannot run .*bypass mode does not apply/,
    );
    // What never relied on the sandbox keeps the mode's meaning.
    expect(write?.isError).toBe(false);
    expect(await h.repo.read("notes.md")).toBe("edits need no sandbox\n");
  });

  it("interactive: bypass and auto-allow ask a person; an allow rule still allows; /doctor says so", async () => {
    const asked: string[] = [];
    h = await harness({
      files: { "README.md": "# x\n" },
      userSettings: `[permissions]\nallow = ["Bash(echo allowed)"]\n\n${SANDBOX_ON}`,
      overrides: { mode: "bypass" },
      engine: { sandbox: missingBwrap() },
      approve: (r) => {
        asked.push(r.title);
        return { type: "allowOnce" };
      },
      script: [
        reply.toolCalls([
          { name: "Bash", input: { command: "touch approved" } },
          { name: "Bash", input: { command: "echo allowed" } },
        ]),
        reply.text("done"),
      ],
    });
    await h.session.run("go");
    expect(asked).toEqual(["Bash touch approved"]);
    const requested = h.recorder.ofType("approvalRequested");
    expect(requested.map((r) => r.reason).join("\n")).toMatch(/cannot run .*unconfined/);
    expect(existsSync(h.repo.path("approved"))).toBe(true);
    expect(resultText(resultsOf(h, 1)[1])).toContain("allowed");
    const doctor = await h.session.command("doctor", "");
    expect(JSON.stringify(doctor)).toMatch(/sandbox on in the settings but cannot run/);
  });
});
