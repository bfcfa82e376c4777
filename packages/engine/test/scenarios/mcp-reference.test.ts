// biome-ignore-all lint/suspicious/noTemplateCurlyInString: .mcp.json files hold ${VAR} text.
import { fileURLToPath } from "node:url";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";
import { resultsOf, resultText, serverState, toolNames } from "../mcp-support.js";

// The published server-filesystem, started from its installed bin as a user's .mcp.json would.
const FILESYSTEM = fileURLToPath(
  new URL("../../node_modules/.bin/mcp-server-filesystem", import.meta.url),
);

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("a Claude Code .mcp.json with a reference server", { timeout: 60_000 }, () => {
  it("works unchanged in a trusted project: the server's tools read the project", async () => {
    h = await harness({
      files: {
        "README.md": "# the readme of this project\n",
        ".mcp.json": JSON.stringify({
          $schema: "https://json.schemastore.org/mcp.json",
          mcpServers: {
            "project files": {
              type: "stdio",
              command: FILESYSTEM,
              args: ["${PROJECT_DIR:-.}"],
              $comment: "the project folder",
            },
            "no command": { args: ["x"] },
          },
        }),
      },
      script: [
        reply.toolCall("mcp__project_files__read_text_file", { path: "README.md" }),
        reply.text("done"),
      ],
      userSettings: '[permissions]\nallow = ["mcp__project_files"]\n',
      trusted: true,
    });
    await serverState(h, "project files", "ready");
    const problem = h.recorder
      .ofType("notice")
      .find((n) => n.code === "settings.problem" && n.message.includes("no command"));
    expect(problem?.message).toContain("exactly one of `command` (stdio) or `url`");
    await h.session.run("read the readme");
    expect(toolNames(h.model.requests[0])).toContain("mcp__project_files__read_text_file");
    expect(resultText(resultsOf(h, 1)[0])).toContain("# the readme of this project");
  });
});
