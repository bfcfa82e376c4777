import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../errors.js";
import { applyAgentCommit } from "./apply.js";
import {
  type AgentWorktree,
  commitAgentWorktree,
  createAgentWorktree,
  removeAgentWorktree,
} from "./worktree.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent" };
const repos: FixtureRepo[] = [];
let data: string;
beforeEach(async () => {
  data = await mkdtemp(join(tmpdir(), "zeng-wt-data-"));
});
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.dispose()));
  await rm(data, { recursive: true, force: true });
});

/** The engine's folder for an agent's repository (in the tests' stand-in for the session folder). */
const gitDirOf = (name: string) => join(data, name, "git");

async function repo(files: Record<string, string | Uint8Array>, git = true): Promise<FixtureRepo> {
  const r = await createFixtureRepo({ files, git });
  repos.push(r);
  return r;
}

const lines = (n: number, tag = "") =>
  `${Array.from({ length: n }, (_, i) => `line ${i + 1}${tag}`).join("\n")}\n`;

function edit(text: string, line: number, replacement: string): string {
  const all = text.split("\n");
  all[line - 1] = replacement;
  return all.join("\n");
}

async function agentChanges(
  r: FixtureRepo,
  change: (wt: AgentWorktree) => Promise<void>,
): Promise<{ wt: AgentWorktree; commit: string }> {
  const wt = await createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env });
  await change(wt);
  const summary = await commitAgentWorktree(wt, { env });
  if (summary.commit === null) throw new Error("the agent changed nothing");
  return { wt, commit: summary.commit };
}

describe("agent worktrees", () => {
  it("creates a worktree on a new branch, commits and summarises the agent's changes", async () => {
    const r = await repo({ "a.txt": lines(5), "b.txt": "bye\n", "src/c.txt": "c\n" });
    const wt = await createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env });
    expect(wt.path).toBe(join(r.root, ".z-engine", "worktrees", "a1"));
    expect(wt.root).toBe(wt.path);
    expect(await readFile(join(wt.path, "a.txt"), "utf8")).toBe(lines(5));
    await writeFile(join(wt.path, "a.txt"), edit(lines(5), 2, "two"));
    await rm(join(wt.path, "b.txt"));
    await writeFile(join(wt.path, "new.txt"), "x\ny\n");
    const summary = await commitAgentWorktree(wt, { env });
    expect(summary.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(summary.files).toEqual([
      { path: "a.txt", status: "modified", added: 1, removed: 1 },
      { path: "b.txt", status: "deleted", added: 0, removed: 1 },
      { path: "new.txt", status: "added", added: 2, removed: 0 },
    ]);
    // The branch and commit live in the engine's repository, not the user's.
    expect(await r.git("--git-dir", wt.gitDir, "branch", "--list")).toContain("z-engine/agents/a1");
    expect(await r.git("branch", "--list", "z-engine/*")).toBe("");
    expect(await r.git("cat-file", "-t", summary.commit ?? "").catch(() => "missing")).toBe(
      "missing",
    );
    // The project's own status never lists the worktrees folder.
    expect(await r.git("status", "--porcelain")).toBe("");
    // The agent's own git in its worktree reads the engine's repository.
    expect(await readFile(join(wt.path, ".git"), "utf8")).toBe(`gitdir: ${wt.gitDir}\n`);
    await removeAgentWorktree(wt);
    expect(existsSync(wt.path)).toBe(false);
    expect(existsSync(wt.gitDir)).toBe(false);
  });

  it("summarises nothing when the agent changed nothing", async () => {
    const r = await repo({ "a.txt": "a\n" });
    const wt = await createAgentWorktree(r.root, "idle", gitDirOf("idle"), { env });
    expect(await commitAgentWorktree(wt, { env })).toEqual({ commit: null, files: [] });
  });

  it("works in the project's subfolder of a larger repository", async () => {
    const r = await repo({ "pkg/app/a.txt": "a\n", "other.txt": "o\n" });
    const wt = await createAgentWorktree(r.path("pkg/app"), "sub", gitDirOf("sub"), { env });
    expect(wt.root).toBe(join(r.root, "pkg/app/.z-engine/worktrees/sub/pkg/app"));
    await writeFile(join(wt.root, "a.txt"), "A\n");
    const summary = await commitAgentWorktree(wt, { env });
    const result = await applyAgentCommit(wt, summary.commit ?? "", { env });
    expect(result).toEqual({ applied: true, written: [r.path("pkg/app/a.txt")], deleted: [] });
    expect(await r.read("pkg/app/a.txt")).toBe("A\n");
  });

  it("takes the place of the empty mount point a running sandbox leaves for .z-engine/worktrees", async () => {
    const r = await repo({ "a.txt": "a\n" });
    await r.write(".z-engine/worktrees", "");
    const wt = await createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env });
    expect(await readFile(join(wt.path, "a.txt"), "utf8")).toBe("a\n");
  });

  it("gives a clear error outside git, for a bad name and for a name in use", async () => {
    const plain = await repo({ "a.txt": "a\n" }, false);
    await expect(
      createAgentWorktree(plain.root, "a1", gitDirOf("p1"), { env }),
    ).rejects.toMatchObject({
      code: "notGitRepository",
    });
    const r = await repo({ "a.txt": "a\n" });
    await expect(
      createAgentWorktree(r.root, "../escape", gitDirOf("e"), { env }),
    ).rejects.toBeInstanceOf(HostError);
    await createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env });
    await expect(createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env })).rejects.toMatchObject({
      code: "worktreeFailed",
    });
  });
});

describe("applyAgentCommit: the three-way merge table", () => {
  it("clean: the project did not change, the agent's files are written", async () => {
    const r = await repo({ "a.txt": lines(5), "gone.txt": "g\n" });
    const { wt, commit } = await agentChanges(r, async (w) => {
      await writeFile(join(w.path, "a.txt"), edit(lines(5), 3, "three"));
      await rm(join(w.path, "gone.txt"));
      await writeFile(join(w.path, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    });
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result).toEqual({
      applied: true,
      written: [r.path("a.txt"), r.path("run.sh")],
      deleted: [r.path("gone.txt")],
    });
    expect(await r.read("a.txt")).toBe(edit(lines(5), 3, "three"));
    expect(existsSync(r.path("gone.txt"))).toBe(false);
    expect((await stat(r.path("run.sh"))).mode & 0o111).not.toBe(0);
  });

  it("both changed different lines: merged, the project's uncommitted edit kept", async () => {
    const r = await repo({ "a.txt": lines(10) });
    const { wt, commit } = await agentChanges(r, (w) =>
      writeFile(join(w.path, "a.txt"), edit(lines(10), 9, "agent nine")),
    );
    await r.write("a.txt", edit(lines(10), 2, "parent two"));
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result.applied).toBe(true);
    expect(await r.read("a.txt")).toBe(edit(edit(lines(10), 2, "parent two"), 9, "agent nine"));
  });

  it("conflict: both changed the same line; the report has all three sides and nothing is written", async () => {
    const r = await repo({ "a.txt": lines(5), "b.txt": "b\n" });
    const { wt, commit } = await agentChanges(r, async (w) => {
      await writeFile(join(w.path, "a.txt"), edit(lines(5), 3, "agent"));
      await writeFile(join(w.path, "b.txt"), "agent b\n");
    });
    await r.write("a.txt", edit(lines(5), 3, "parent"));
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result.applied).toBe(false);
    if (result.applied) return;
    expect(result.conflicts).toHaveLength(1);
    expect(result.conflicts[0]).toMatchObject({
      path: "a.txt",
      kind: "content",
      ours: edit(lines(5), 3, "parent"),
      theirs: edit(lines(5), 3, "agent"),
      base: lines(5),
    });
    expect(result.conflicts[0]?.merged).toContain("<<<<<<< project");
    // All or nothing: the clean b.txt was not written either.
    expect(await r.read("b.txt")).toBe("b\n");
    expect(await r.read("a.txt")).toBe(edit(lines(5), 3, "parent"));
  });

  it("deleted on one side: a conflict when the other side changed it, else the deletion", async () => {
    const r = await repo({ "kept.txt": "k\n", "edited.txt": "e\n", "dropped.txt": "d\n" });
    const { wt, commit } = await agentChanges(r, async (w) => {
      await rm(join(w.path, "edited.txt"));
      await writeFile(join(w.path, "dropped.txt"), "agent d\n");
    });
    await r.write("edited.txt", "parent e\n");
    await rm(r.path("dropped.txt"));
    const result = await applyAgentCommit(wt, commit, { env });
    expect(
      result.applied ? [] : result.conflicts.map((c) => [c.path, c.kind, c.ours, c.theirs]),
    ).toEqual([
      ["dropped.txt", "deletedInProject", null, "agent d\n"],
      ["edited.txt", "deletedByAgent", "parent e\n", null],
    ]);
    expect(await r.read("edited.txt")).toBe("parent e\n");
  });

  it("binary: written when only the agent changed it, a conflict when both did", async () => {
    const bin = (n: number) => Uint8Array.from([0, 1, 2, n, 0, 255]);
    const r = await repo({ "one.bin": bin(1), "both.bin": bin(1) });
    const { wt, commit } = await agentChanges(r, async (w) => {
      await writeFile(join(w.path, "one.bin"), bin(2));
      await writeFile(join(w.path, "both.bin"), bin(2));
    });
    const cleanFirst = await applyAgentCommit(wt, commit, { env });
    expect(cleanFirst.applied).toBe(true);
    expect(await readFile(r.path("one.bin"))).toEqual(Buffer.from(bin(2)));
    await r.write("both.bin", bin(3));
    await r.write("one.bin", bin(1));
    await r.write("one.bin", bin(2));
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result.applied ? [] : result.conflicts).toEqual([
      { path: "both.bin", kind: "binary", ours: null, theirs: null, base: null },
    ]);
    expect(await readFile(r.path("both.bin"))).toEqual(Buffer.from(bin(3)));
  });

  it("new on both sides: the same content is fine, different content conflicts", async () => {
    const r = await repo({ "a.txt": "a\n" });
    const { wt, commit } = await agentChanges(r, async (w) => {
      await writeFile(join(w.path, "same.txt"), "same\n");
      await writeFile(join(w.path, "differs.txt"), "agent\n");
    });
    await r.write("same.txt", "same\n");
    await r.write("differs.txt", "parent\n");
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result.applied ? [] : result.conflicts).toEqual([
      { path: "differs.txt", kind: "addedOnBoth", ours: "parent\n", theirs: "agent\n", base: null },
    ]);
    await r.write("differs.txt", "agent\n");
    expect(await applyAgentCommit(wt, commit, { env })).toEqual({
      applied: true,
      written: [],
      deleted: [],
    });
  });
});
