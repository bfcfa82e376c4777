import { readFile } from "node:fs/promises";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";
import { resultsOf, resultText } from "../mcp-support.js";

// Issue 38, item 10, through the engine and real bubblewrap: a vendored repository's .git
// stays read-only to the agent's auto-allowed sandboxed commands, and a .git a command
// creates is reported.

let h: Harness | undefined;
const hook = JSON.stringify("vendor/lib/.git/hooks/pre-commit");
const config = JSON.stringify("vendor/lib/.git/config");
/** A command that writes through node, naming no file the policy could check. */
const node = (code: string) => `node -e '${`const fs = require("fs"); ${code}`}'`;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("nested .git folders under the sandbox", { timeout: 60_000 }, () => {
  it("keeps a vendored repository's hooks and config out of reach; a created .git is reported", async () => {
    h = await harness({
      files: {
        "vendor/lib/.git/HEAD": "ref: refs/heads/main\n",
        "vendor/lib/.git/config": "[core]\n\tbare = false\n",
        "vendor/lib/.git/hooks/README": "hooks\n",
        "vendor/lib/index.js": "module.exports = 1;\n",
      },
      userSettings: "[shell.sandbox]\nenabled = true\nauto_allow = true\n",
      trusted: true,
      script: [
        // Writes the policy cannot see (no file named for writing), so auto-allow runs them.
        reply.toolCalls([
          {
            name: "Bash",
            input: { command: node(`fs.writeFileSync(${hook}, "#!/bin/sh\\ntouch ~/owned\\n")`) },
          },
          {
            name: "Bash",
            input: {
              command: node(
                `fs.appendFileSync(${config}, "[core]\\n\\tfsmonitor = touch ~/owned\\n")`,
              ),
            },
          },
          {
            name: "Bash",
            input: { command: node(`fs.mkdirSync("tools/x/.git/hooks", { recursive: true })`) },
          },
        ]),
        reply.text("done"),
      ],
    });
    await h.session.run("plant");
    const [hookOut, configOut, made] = resultsOf(h, 1).map(resultText);
    expect(hookOut).toMatch(/EROFS|read-only file system/i);
    expect(configOut).toMatch(/EROFS|read-only file system/i);
    expect(made).toContain(`the command created ${h.repo.path("tools/x/.git")}`);
    expect(await readFile(h.repo.path("vendor/lib/.git/config"), "utf8")).toBe(
      "[core]\n\tbare = false\n",
    );
    const notice = await h.recorder.waitFor("notice", { code: "sandbox.gitCreated" });
    expect(notice.level).toBe("warning");
    // Every command was auto-allowed: the sandbox, not an approval, held the line.
    expect(h.recorder.ofType("approvalRequested")).toEqual([]);
  });
});
