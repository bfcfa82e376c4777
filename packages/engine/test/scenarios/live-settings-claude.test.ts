import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// Issue 46: Claude Code's settings files (the project's .claude/settings.json and
// settings.local.json, the user's ~/.claude/settings.json under the test's own HOME) are
// watched like the engine's own: an edit reaches the running session's tool gate.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function write(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}

/** Writes a file and resolves with the one `settings.changed` notice the edit gives. */
async function edit(x: Harness, file: string, value: unknown) {
  const changed = x.recorder.waitFor(
    "notice",
    { code: "settings.changed" },
    { fromIndex: x.recorder.envelopes.length, timeoutMs: 10_000 },
  );
  await write(file, value);
  return changed;
}

/** Runs one Bash command in a turn; resolves with its tool status. */
async function bash(x: Harness, command: string): Promise<string | undefined> {
  x.model.push(reply.toolCall("Bash", { command }), reply.text("ran"));
  await x.session.run(`run ${command}`);
  return x.recorder.ofType("toolFinished").at(-1)?.status;
}

describe("live settings: Claude Code's files", { timeout: 60_000 }, () => {
  it("a deny rule added to .claude/settings.json, its local file or ~/.claude/settings.json holds at the next turn", async () => {
    h = await harness({
      files: { "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" },
      script: [],
      trusted: true,
      engine: { headless: true },
      overrides: { mode: "bypass" },
    });
    const x = h;
    expect(await bash(x, "rm a.txt")).toBe("ok");
    expect(existsSync(x.repo.path("a.txt"))).toBe(false);

    // The project's file, with its folder, neither there when the session opened.
    const project = await edit(x, x.repo.path(".claude/settings.json"), {
      permissions: { deny: ["Bash(rm:*)"] },
    });
    expect(project.level).toBe("info");
    expect(project.message).toContain(".claude/settings.json");
    expect(project.message).toContain("permissions.deny");
    expect(await bash(x, "rm b.txt")).toBe("denied");
    expect(existsSync(x.repo.path("b.txt"))).toBe(true);

    expect(await bash(x, "touch t1")).toBe("ok");
    const local = await edit(x, x.repo.path(".claude/settings.local.json"), {
      permissions: { deny: ["Bash(touch:*)"] },
    });
    expect(local.message).toContain(".claude/settings.local.json");
    expect(await bash(x, "touch t2")).toBe("denied");
    expect(existsSync(x.repo.path("t2"))).toBe(false);

    expect(await bash(x, "cp c.txt d.txt")).toBe("ok");
    const userFile = join(x.home, ".claude", "settings.json");
    const user = await edit(x, userFile, { permissions: { deny: ["Bash(cp:*)"] } });
    expect(user.message).toContain(userFile);
    expect(await bash(x, "cp c.txt e.txt")).toBe("denied");
    expect(existsSync(x.repo.path("e.txt"))).toBe(false);

    expect(x.recorder.ofType("notice").filter((n) => n.code === "settings.changed")).toHaveLength(
      3,
    );
  });
});
