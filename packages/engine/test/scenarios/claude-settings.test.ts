import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginProject } from "../harness.js";

let h: Harness | undefined;
let outside: string | undefined;
afterEach(async () => {
  await h?.dispose();
  if (outside) await rm(outside, { recursive: true, force: true });
  h = undefined;
  outside = undefined;
});
/** A `.claude/settings.json` as Claude Code users write it; markers name absolute paths. */
function claudeSettings(marker: (name: string) => string): string {
  return JSON.stringify({
    permissions: { allow: ["Bash(echo:*)"], deny: ["Read(./secrets/**)"] },
    hooks: {
      PreToolUse: [
        { matcher: "Bash", hooks: [{ type: "command", command: `touch ${marker("pre-bash")}` }] },
        {
          matcher: "Edit|Write",
          hooks: [{ type: "command", command: `touch ${marker("pre-edit")}` }],
        },
      ],
      SessionStart: [
        { hooks: [{ type: "command", command: `touch ${marker("start")}`, timeout: 5 }] },
      ],
    },
  });
}

describe(".claude/settings.json in a session", () => {
  it("runs its hooks by matcher, applies its allow rule and holds its Read deny", async () => {
    const dir = await mkdtemp(join(tmpdir(), "zeng-claude-markers-"));
    outside = dir;
    h = await harness({
      files: {
        ...loginProject,
        "secrets/key.txt": "hunter2\n",
        ".claude/settings.json": claudeSettings((name) => join(dir, name)),
      },
      script: [],
      engine: { headless: true },
      trusted: true,
    });
    const x = h;
    x.model.push(
      reply.toolCalls([
        { name: "Bash", input: { command: "echo ran" } },
        { name: "Read", input: { file_path: x.repo.path("secrets/key.txt") } },
      ]),
      reply.text("done"),
    );
    await x.session.run("try");
    expect(x.recorder.ofType("toolFinished").map((f) => [f.toolName, f.status])).toEqual([
      ["Bash", "ok"],
      ["Read", "denied"],
    ]);
    expect(existsSync(join(dir, "start"))).toBe(true);
    expect(existsSync(join(dir, "pre-bash"))).toBe(true);
    expect(existsSync(join(dir, "pre-edit"))).toBe(false);
  });
});
