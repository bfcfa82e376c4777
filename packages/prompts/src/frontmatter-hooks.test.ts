import { describe, expect, it } from "vitest";
import { frontmatterHooks } from "./frontmatter-hooks.js";

describe("frontmatterHooks", () => {
  it("reads Claude Code's hooks: block (matchers, timeouts, quotes, comments)", () => {
    const text = [
      "---",
      "name: db-reader",
      "hooks:",
      "  PreToolUse:",
      '    - matcher: "Bash"',
      "      hooks:",
      "        - type: command",
      '          command: "./scripts/validate-readonly-query.sh"',
      "          timeout: 10 # seconds",
      "  Stop:",
      "    - hooks:",
      "        - type: command",
      "          command: ./done.sh",
      "        - type: prompt",
      "          prompt: Is it done?",
      "description: after the block",
      "---",
      "Body",
    ].join("\n");
    expect(frontmatterHooks(text)).toEqual({
      hooks: [
        {
          event: "PreToolUse",
          matcher: "Bash",
          command: "./scripts/validate-readonly-query.sh",
          timeoutSecs: 10,
        },
        { event: "Stop", matcher: "", command: "./done.sh" },
      ],
      problems: ["hooks.Stop: hook type `prompt` is not run by zeng"],
    });
  });

  it("gives none without a hooks: key; a malformed block is a problem, never a throw", () => {
    expect(frontmatterHooks("---\nname: a\n---\nx")).toEqual({ hooks: [], problems: [] });
    expect(frontmatterHooks("no frontmatter")).toEqual({ hooks: [], problems: [] });
    expect(frontmatterHooks("---\nhooks:\n  - a\n---\n").problems).toEqual([
      "hooks: expected a map of events",
    ]);
    expect(frontmatterHooks("---\nhooks:\n  PreToolUse: nope\n---\n").problems).toEqual([
      "hooks.PreToolUse: expected a list",
    ]);
  });
});
