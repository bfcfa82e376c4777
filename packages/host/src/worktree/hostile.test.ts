import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import {
  appendFile,
  link,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createFixtureRepo, type FixtureFiles, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHostileRepo } from "../test-support/hostile-repo.js";
import { applyAgentCommit } from "./apply.js";
import {
  type AgentWorktree,
  commitAgentWorktree,
  createAgentWorktree,
  removeAgentWorktree,
} from "./worktree.js";

// Issue 38, items 2, 3 and 4, at the host's level: the engine's git for a worktree agent runs
// nothing the project's git config names, apply writes nothing through a link, and a
// worktree's `.git` file repointed at a planted git folder stops the engine.

const exec = promisify(execFile);
let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "zeng-wt-hostile-"));
});
const repos: FixtureRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.dispose()));
  await rm(scratch, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent" };
const gitDirOf = (name: string) => join(scratch, "session", name, "git");

async function repo(files: FixtureFiles) {
  const r = await createFixtureRepo({ files });
  repos.push(r);
  return r;
}

/** A worktree of `r` in which `change` runs, committed; the worktree and the agent's commit. */
async function agentCommit(r: FixtureRepo, change: (wt: AgentWorktree) => Promise<void>) {
  const wt = await createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env });
  await change(wt);
  const { commit } = await commitAgentWorktree(wt, { env });
  if (!commit) throw new Error("the agent changed nothing");
  return { wt, commit };
}

describe("a worktree agent's git in a hostile repository (item 2)", () => {
  it("creates, commits, summarises, applies and removes without starting a planted program", async () => {
    await using hostile = await createHostileRepo();
    await hostile.makeIndexRacy();
    const wt = await createAgentWorktree(hostile.repo.root, "a1", gitDirOf("a1"), {
      env: hostile.env,
    });
    // Checked out byte for byte: no smudge filter ran on the way.
    expect(await readFile(join(wt.path, "a.txt"), "utf8")).toBe("a\n");
    await writeFile(join(wt.path, "a.txt"), "agent\n");
    await writeFile(join(wt.path, "pkg/b.txt"), "agent b\n");
    const summary = await commitAgentWorktree(wt, { env: hostile.env });
    expect(summary.files.map((f) => [f.path, f.added, f.removed])).toEqual([
      ["a.txt", 1, 1],
      ["pkg/b.txt", 1, 1],
    ]);
    const result = await applyAgentCommit(wt, summary.commit ?? "", { env: hostile.env });
    expect(result.applied).toBe(true);
    expect(await hostile.repo.read("pkg/b.txt")).toBe("agent b\n");
    await removeAgentWorktree(wt);
    expect(await hostile.ran()).toEqual([]);
  }, 60_000);
});

describe("applyAgentCommit and links (item 3)", () => {
  it("refuses a committed link whose real location leaves the project, and writes nothing", async () => {
    const outside = join(scratch, "bashrc");
    await writeFile(outside, "user's\n");
    const r = await repo({ "notes.txt": { symlink: outside }, "a.txt": "a\n" });
    const { wt, commit } = await agentCommit(r, async (w) => {
      await rm(join(w.path, "notes.txt"));
      await writeFile(join(w.path, "notes.txt"), "pwned\n");
      await writeFile(join(w.path, "a.txt"), "A\n");
    });
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result).toEqual({
      applied: false,
      conflicts: [],
      refused: [
        {
          path: "notes.txt",
          reason: `notes.txt is a symbolic link to ${outside}, outside the project`,
        },
      ],
    });
    expect(await readFile(outside, "utf8")).toBe("user's\n");
    expect(await r.read("a.txt")).toBe("a\n");
  });

  it("refuses a path beyond a folder link, a FIFO, and an agent's link leading out", async () => {
    const elsewhere = join(scratch, "elsewhere");
    await mkdir(elsewhere);
    const r = await repo({ "lib/x.txt": "x\n", "pipe.txt": "p\n", "a.txt": "a\n" });
    const { wt, commit } = await agentCommit(r, async (w) => {
      await writeFile(join(w.path, "lib/x.txt"), "agent x\n");
      await writeFile(join(w.path, "pipe.txt"), "agent p\n");
      await symlink("../../../../../../etc/passwd", join(w.path, "out"));
    });
    // The project's folder becomes a link out, and its file a FIFO, after the agent started.
    await rm(r.path("lib"), { recursive: true });
    await symlink(elsewhere, r.path("lib"));
    await rm(r.path("pipe.txt"));
    await exec("mkfifo", [r.path("pipe.txt")]);
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result.applied ? [] : result.refused.map((p) => p.path)).toEqual([
      "lib/x.txt",
      "out",
      "pipe.txt",
    ]);
    expect(existsSync(join(elsewhere, "x.txt"))).toBe(false);
  });

  it("replaces a link inside the project and a hard-linked file, writing through neither", async () => {
    const shared = join(scratch, "shared.txt");
    await writeFile(shared, "shared\n");
    const r = await repo({ "target.txt": "t\n", "alias.txt": { symlink: "target.txt" } });
    await link(shared, r.path("hard.txt"));
    await r.commit("hard link");
    const { wt, commit } = await agentCommit(r, async (w) => {
      await rm(join(w.path, "alias.txt"));
      await writeFile(join(w.path, "alias.txt"), "own file\n");
      await appendFile(join(w.path, "hard.txt"), "more\n");
      await symlink("target.txt", join(w.path, "second-alias.txt"));
    });
    const result = await applyAgentCommit(wt, commit, { env });
    expect(result.applied).toBe(true);
    expect(await r.read("alias.txt")).toBe("own file\n");
    expect(await r.read("target.txt")).toBe("t\n");
    expect(await r.read("hard.txt")).toBe("shared\nmore\n");
    expect(await readFile(shared, "utf8")).toBe("shared\n");
    expect(await readlink(r.path("second-alias.txt"))).toBe("target.txt");
  });
});

describe("a worktree's .git file and the engine's repository for it (item 4)", () => {
  /** A git folder a sandboxed command could plant, whose clean filter runs `ran-<name>`. */
  async function plantGitDir(at: string, marker: string): Promise<void> {
    await exec("git", ["init", "-q", "--bare", at]);
    await writeFile(
      join(at, "config"),
      `[core]\n\tbare = false\n[filter "evil"]\n\tclean = touch ${marker}; cat\n`,
    );
  }

  it("refuses to commit once the .git file names a planted git folder", async () => {
    const r = await repo({ "a.txt": "a\n", ".gitattributes": "* filter=evil\n" });
    const wt = await createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env });
    const marker = join(scratch, "ran-clean");
    await plantGitDir(join(wt.path, "planted"), marker);
    await writeFile(join(wt.path, ".git"), `gitdir: ${join(wt.path, "planted")}\n`);
    await writeFile(join(wt.path, "a.txt"), "changed\n");
    await expect(commitAgentWorktree(wt, { env })).rejects.toMatchObject({
      code: "worktreeTampered",
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("writes its own config again before committing, so a planted filter never runs", async () => {
    const r = await repo({ "a.txt": "a\n", ".gitattributes": "* filter=evil\n" });
    const wt = await createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env });
    const marker = join(scratch, "ran-clean");
    await appendFile(
      join(wt.gitDir, "config"),
      `[filter "evil"]\n\tclean = touch ${marker}; cat\n`,
    );
    await writeFile(join(wt.gitDir, "commondir"), `${r.path(".git")}\n`);
    await writeFile(join(wt.path, "a.txt"), "changed\n");
    const summary = await commitAgentWorktree(wt, { env });
    expect(summary.files.map((f) => f.path)).toEqual(["a.txt"]);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses a worktree folder reached through a link, and never creates one through a link", async () => {
    const r = await repo({ "a.txt": "a\n" });
    const elsewhere = join(scratch, "elsewhere");
    await mkdir(elsewhere);
    await symlink(elsewhere, r.path(".z-engine"));
    await expect(createAgentWorktree(r.root, "a1", gitDirOf("a1"), { env })).rejects.toMatchObject({
      code: "worktreeFailed",
    });
    expect(existsSync(join(elsewhere, "worktrees"))).toBe(false);
  });
});
