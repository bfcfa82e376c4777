import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  pendingAgentChanges,
  QueryError,
  resolveAgentChanges,
  revertChange,
  sessionChanges,
} from "@z-engine/engine";
import type { ModelRequest } from "@z-engine/protocol";
import { reply, when } from "@z-engine/testkit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Harness, harness } from "../harness.js";

// The Changes screen's queries: files changed since a checkpoint with line diffs, a revert of
// one file or one hunk through the checkpoint, and worktree agents' pending changes.

vi.setConfig({ testTimeout: 60_000 });

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const long = `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n")}\n`;
const files = { "a.txt": long, "keep.txt": "kept\n", "gone.txt": "bye\n" };

/** One turn that edits a.txt in two far-apart places, writes new.txt and deletes gone.txt. */
async function changeThings(x: Harness): Promise<void> {
  const edited = long.replace("line 2\n", "line two\n").replace("line 28\n", "line twenty-eight\n");
  x.model.push(
    reply.toolCall("Read", { file_path: x.repo.path("a.txt") }),
    reply.toolCall("Write", { file_path: x.repo.path("a.txt"), content: edited }),
    reply.toolCall("Write", { file_path: x.repo.path("new.txt"), content: "new\n" }),
    reply.toolCall("Bash", { command: "rm gone.txt" }),
    reply.text("done"),
  );
  expect((await x.session.run("change things")).outcome).toBe("completed");
}

describe("sessionChanges and revertChange", () => {
  it("lists every file changed since the first checkpoint, with hunks and counts", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changeThings(h);
    const changes = await sessionChanges(h.session);
    expect(changes.checkpoint).not.toBeNull();
    expect(changes.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ["a.txt", "modified", 2, 2],
      ["gone.txt", "deleted", 0, 1],
      ["new.txt", "added", 1, 0],
    ]);
    const a = changes.files[0];
    expect(a?.hunks).toHaveLength(2);
    expect(
      a?.hunks[0]?.lines.filter((l) => l.kind !== " ").map((l) => `${l.kind}${l.text}`),
    ).toEqual(["-line 2", "+line two"]);
  });

  it("reverts one hunk, then whole files (an added one removed, a deleted one back), with a notice", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changeThings(h);
    const changes = await sessionChanges(h.session);
    const checkpointId = changes.checkpoint?.id ?? "";
    const a = changes.files.find((f) => f.path === "a.txt");
    const one = await revertChange(h.session, {
      checkpointId,
      path: "a.txt",
      hunks: [1],
      ...(a ? { expectSha: a.currentSha } : {}),
    });
    expect(one).toMatchObject({ ok: true });
    expect(await h.repo.read("a.txt")).toBe(long.replace("line 2\n", "line two\n"));
    // The review is stale now: the same digest is refused and nothing is written.
    const stale = await revertChange(h.session, {
      checkpointId,
      path: "a.txt",
      ...(a ? { expectSha: a.currentSha } : {}),
    });
    expect(stale).toMatchObject({ ok: false });
    expect(await h.repo.read("a.txt")).toBe(long.replace("line 2\n", "line two\n"));
    for (const path of ["a.txt", "new.txt", "gone.txt"])
      expect(await revertChange(h.session, { checkpointId, path })).toMatchObject({ ok: true });
    expect(await h.repo.read("a.txt")).toBe(long);
    expect(await h.repo.read("gone.txt")).toBe("bye\n");
    await expect(h.repo.read("new.txt")).rejects.toThrow();
    expect((await sessionChanges(h.session)).files).toEqual([]);
    const notices = h.recorder.ofType("notice").filter((n) => n.code === "changes.reverted");
    expect(notices.map((n) => n.message)).toContain(
      'a.txt: one hunk reverted to the checkpoint before "change things"',
    );
  });

  it("refuses paths outside the project, links, unknown checkpoints and a running turn", async () => {
    h = await harness({ files, script: [], overrides: { mode: "bypass" } });
    await changeThings(h);
    const checkpointId = (await sessionChanges(h.session)).checkpoint?.id ?? "";
    for (const path of ["../x", "/etc/passwd", ".git/config", "a/../../b"])
      expect(await revertChange(h.session, { checkpointId, path })).toMatchObject({ ok: false });
    expect(await revertChange(h.session, { checkpointId: "cp_nope", path: "a.txt" })).toMatchObject(
      {
        ok: false,
        reason: "no checkpoint cp_nope in this session",
      },
    );
    // A folder the project links outside of: nothing is written through it.
    const outside = join(h.home, "outside");
    await mkdir(outside);
    await symlink(outside, h.repo.path("out"));
    expect(await revertChange(h.session, { checkpointId, path: "out/gone.txt" })).toMatchObject({
      ok: false,
    });
    await symlink("/etc/hostname", h.repo.path("link.txt"));
    expect(await revertChange(h.session, { checkpointId, path: "link.txt" })).toMatchObject({
      ok: false,
    });
    // While a turn waits on an approval, nothing is reverted.
    h.session.send({ type: "setMode", mode: "ask" });
    h.model.push(reply.toolCall("Bash", { command: "echo hi > hi.txt" }), reply.text("ok"));
    h.session.send({ type: "submit", text: "ask me" });
    await h.recorder.waitFor("approvalRequested");
    expect(await revertChange(h.session, { checkpointId, path: "a.txt" })).toEqual({
      ok: false,
      reason: "a turn is running: revert once it ends",
    });
    h.session.send({ type: "cancel" });
    await h.session.idle();
  });

  it("throws a QueryError for a handle the engine did not make", async () => {
    await expect(sessionChanges({} as never)).rejects.toBeInstanceOf(QueryError);
  });
});

describe("pendingAgentChanges and resolveAgentChanges", () => {
  const MARK = "MARKER-WT: you edit with the shell.";
  const sub = (r: ModelRequest) => JSON.stringify(r.system).includes(MARK);
  const main = (r: ModelRequest) => !sub(r);
  const agentFiles = {
    "src/a.ts": "export const a = 1;\n",
    ".claude/agents/basher.md": `---\nname: basher\ndescription: Edits with the shell\ntools: Bash\n---\n${MARK}\n`,
  };

  async function worktreeAgent(x: Harness, to: number): Promise<void> {
    x.model.push(
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
      when(main, reply.text("changes wait")),
    );
    expect((await x.session.run(`set a to ${to}`)).outcome).toBe("completed");
  }

  it("lists an agent's changes as a diff against the project, and the user applies them", async () => {
    h = await harness({ files: agentFiles, script: [], overrides: { mode: "bypass" } });
    await worktreeAgent(h, 2);
    const pending = await pendingAgentChanges(h.session);
    expect(pending).toHaveLength(1);
    const [agent] = pending;
    expect(agent?.agentType).toBe("basher");
    expect(agent?.description).toBe("set a to 2");
    expect(agent?.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ["src/a.ts", "modified", 1, 1],
    ]);
    const outcome = await resolveAgentChanges(h.session, agent?.agentId ?? "", true);
    expect(outcome.ok).toBe(true);
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 2;\n");
    expect(await pendingAgentChanges(h.session)).toEqual([]);
    expect(h.recorder.ofType("notice").some((n) => n.code === "agents.changesApplied")).toBe(true);
  });

  it("reports a conflict with the three sides and leaves the project alone; Discard removes it", async () => {
    h = await harness({ files: agentFiles, script: [], overrides: { mode: "bypass" } });
    await worktreeAgent(h, 2);
    await writeFile(h.repo.path("src/a.ts"), "export const a = 3;\n");
    const [agent] = await pendingAgentChanges(h.session);
    const id = agent?.agentId ?? "";
    const conflict = await resolveAgentChanges(h.session, id, true);
    expect(conflict.ok).toBe(false);
    expect(conflict.report).toContain("## src/a.ts: content");
    expect(conflict.report).toContain("### project (ours)\nexport const a = 3;");
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 3;\n");
    expect(await pendingAgentChanges(h.session)).toHaveLength(1);
    expect((await resolveAgentChanges(h.session, id, false)).ok).toBe(true);
    expect(await pendingAgentChanges(h.session)).toEqual([]);
    expect(await h.repo.read("src/a.ts")).toBe("export const a = 3;\n");
  });
});
