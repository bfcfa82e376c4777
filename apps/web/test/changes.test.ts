import { readFile, writeFile } from "node:fs/promises";
import type { ModelRequest } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import {
  newSession,
  openTab,
  send,
  startFixture,
  sharedBrowser,
  type WebFixture,
} from "./web-harness.js";

// Changes: every file changed since a checkpoint as one review, reverted per hunk and per
// file through the checkpoint; worktree agents' pending changes applied or discarded by the
// user, with the merge report for a conflict.

const { cleanup, page } = sharedBrowser();
const bypass = { permissions: { mode: "bypass" } };
const long = `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

describe("the Changes screen", { timeout: 90_000 }, () => {
  it("reviews the session's changes and reverts one hunk, then a whole file", async () => {
    const f = await startFixture({
      files: { "a.txt": long, "b.txt": "b\n" },
      script: [],
      settings: bypass,
    });
    cleanup.push(() => f.dispose());
    const edited = long
      .replace("line 2\n", "line two\n")
      .replace("line 28\n", "line twenty-eight\n");
    f.model.push(
      reply.toolCall("Read", { file_path: f.repo.path("a.txt") }),
      reply.toolCall("Write", { file_path: f.repo.path("a.txt"), content: edited }),
      reply.toolCall("Bash", { command: "echo new > new.txt" }),
      reply.text("Changed a.txt and added new.txt."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "change things");
    await p.getByText("Changed a.txt and added new.txt.").waitFor();
    await openTab(p, "Changes");
    const files = p.getByTestId("changed-file");
    await expect.poll(() => files.count()).toBe(2);
    expect(await p.getByTestId("review-stats").textContent()).toBe("2 files changed, +3 -2");
    const a = files.filter({ hasText: "a.txt" });
    expect(await a.getByTestId("hunk").count()).toBe(2);
    await a.getByTestId("hunk").nth(1).getByRole("button", { name: "Revert hunk" }).click();
    await expect
      .poll(() => readFile(f.repo.path("a.txt"), "utf8"))
      .toBe(long.replace("line 2\n", "line two\n"));
    await expect.poll(() => a.getByTestId("hunk").count()).toBe(1);
    // The revert is said in the transcript (recorded as a notice).
    await p
      .locator('[data-code="changes.reverted"]')
      .filter({ hasText: "a.txt: one hunk reverted" })
      .waitFor();
    await files.filter({ hasText: "new.txt" }).getByRole("button", { name: "Revert file" }).click();
    await expect.poll(() => files.count()).toBe(1);
    await expect(readFile(f.repo.path("new.txt"), "utf8")).rejects.toThrow();
    await files.getByRole("button", { name: "Revert file" }).click();
    await expect.poll(() => files.count()).toBe(0);
    expect(await readFile(f.repo.path("a.txt"), "utf8")).toBe(long);
  });

  it("leaves a file that changed since the review alone and says why", async () => {
    const f = await startFixture({ files: { "a.txt": long }, script: [], settings: bypass });
    cleanup.push(() => f.dispose());
    f.model.push(
      reply.toolCall("Read", { file_path: f.repo.path("a.txt") }),
      reply.toolCall("Write", { file_path: f.repo.path("a.txt"), content: `${long}more\n` }),
      reply.text("Appended."),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, "append");
    await p.getByText("Appended.").waitFor();
    await openTab(p, "Changes");
    await p.getByTestId("changed-file").waitFor();
    await writeFile(f.repo.path("a.txt"), `${long}more\nby hand\n`);
    await p.getByTestId("changed-file").getByRole("button", { name: "Revert file" }).click();
    await p.getByRole("alert").filter({ hasText: "a.txt changed since the review" }).waitFor();
    expect(await readFile(f.repo.path("a.txt"), "utf8")).toBe(`${long}more\nby hand\n`);
  });
});

describe("worktree agents' pending changes", { timeout: 90_000 }, () => {
  const MARK = "MARKER-WT: you edit with the shell.";
  const sub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
  const main = (r: ModelRequest) => !sub(r);
  const files = {
    "src/a.ts": "export const a = 1;\n",
    ".claude/agents/basher.md": `---\nname: basher\ndescription: Edits with the shell\ntools: Bash\n---\n${MARK}\n`,
  };

  async function agentChanges(f: WebFixture, to: number) {
    f.model.push(
      when(
        main,
        reply.toolCall("Agent", {
          description: `set a to ${to}`,
          prompt: "go",
          subagent_type: "basher",
          isolation: "worktree",
        }),
      ),
      when(
        sub,
        reply.toolCall("Bash", { command: `printf 'export const a = ${to};\\n' > src/a.ts` }),
      ),
      when(sub, reply.text("done")),
      when(main, reply.text("Its changes wait for you.")),
    );
    const p = await page();
    await newSession(p, f);
    await send(p, `set a to ${to} in a worktree`);
    await p.getByText("Its changes wait for you.").waitFor({ timeout: 30_000 });
    await openTab(p, "Changes");
    const pending = p.getByTestId("agent-changes");
    await pending.waitFor();
    return { p, pending };
  }

  it("shows an agent's changes as a diff and the user applies them", async () => {
    const f = await startFixture({ files, script: [], settings: bypass });
    cleanup.push(() => f.dispose());
    const { p, pending } = await agentChanges(f, 2);
    expect(await pending.textContent()).toContain("basher agent: set a to 2");
    const diff = (await pending.getByTestId("hunk").textContent()) ?? "";
    expect(diff).toContain("-export const a = 1;");
    expect(diff).toContain("+export const a = 2;");
    expect(await readFile(f.repo.path("src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    await pending.getByRole("button", { name: "Apply" }).click();
    await expect
      .poll(() => readFile(f.repo.path("src/a.ts"), "utf8"))
      .toBe("export const a = 2;\n");
    await expect.poll(() => p.getByTestId("agent-changes").count()).toBe(0);
    await p.locator('[data-code="agents.changesApplied"]').waitFor();
  });

  it("shows the merge report on a conflict and leaves the project alone; Discard drops them", async () => {
    const f = await startFixture({ files, script: [], settings: bypass });
    cleanup.push(() => f.dispose());
    const { p, pending } = await agentChanges(f, 2);
    await writeFile(f.repo.path("src/a.ts"), "export const a = 3;\n");
    await pending.getByRole("button", { name: "Apply" }).click();
    const report = pending.getByTestId("merge-report");
    await report.waitFor();
    expect(await report.textContent()).toContain("src/a.ts: content");
    expect(await report.textContent()).toContain("project (ours)");
    expect(await readFile(f.repo.path("src/a.ts"), "utf8")).toBe("export const a = 3;\n");
    await pending.getByRole("button", { name: "Discard" }).click();
    await expect.poll(() => p.getByTestId("agent-changes").count()).toBe(0);
    expect(await readFile(f.repo.path("src/a.ts"), "utf8")).toBe("export const a = 3;\n");
  });
});
