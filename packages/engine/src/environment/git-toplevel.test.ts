import { execFile } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fixtureGitEnv } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findGitToplevel } from "./git-toplevel.js";

const exec = promisify(execFile);
let scratch: string;
beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "zeng-toplevel-")));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) => exec("git", args, { cwd, env: fixtureGitEnv() });

/** What git itself answers, with the engine's refusal of bare repositories. */
async function gitSays(folder: string): Promise<string | undefined> {
  const out = await exec(
    "git",
    ["-c", "safe.bareRepository=explicit", "rev-parse", "--show-toplevel"],
    {
      cwd: folder,
      env: fixtureGitEnv(),
    },
  ).catch(() => null);
  return out?.stdout.trim() || undefined;
}

describe("findGitToplevel", () => {
  it("finds the repository from its root and from a folder deep inside, as git does", async () => {
    const repo = join(scratch, "repo");
    await mkdir(join(repo, "a", "b"), { recursive: true });
    await git(repo, "init", "-q");
    for (const folder of [repo, join(repo, "a", "b")]) {
      expect(await findGitToplevel(folder)).toBe(repo);
      expect(await gitSays(folder)).toBe(repo);
    }
  });

  it("finds a linked worktree by its .git file", async () => {
    const repo = join(scratch, "repo");
    await mkdir(repo);
    await git(repo, "init", "-q");
    await writeFile(join(repo, "a.txt"), "a\n");
    await git(repo, "add", "a.txt");
    await git(repo, "commit", "-qm", "one");
    const tree = join(scratch, "tree");
    await git(repo, "worktree", "add", "-q", tree);
    await mkdir(join(tree, "sub"));
    expect(await findGitToplevel(join(tree, "sub"))).toBe(tree);
    expect(await gitSays(join(tree, "sub"))).toBe(tree);
  });

  it("answers undefined outside a repository and in a bare one, even inside a work tree", async () => {
    const plain = join(scratch, "plain");
    await mkdir(plain);
    expect(await findGitToplevel(plain)).toBeUndefined();
    const repo = join(scratch, "repo");
    await mkdir(repo);
    await git(repo, "init", "-q");
    const bare = join(repo, "vendor", "bare");
    await git(scratch, "init", "-q", "--bare", bare);
    expect(await findGitToplevel(bare)).toBeUndefined();
    expect(await gitSays(bare)).toBeUndefined();
  });

  it("does not take a .git folder that is not a repository", async () => {
    const folder = join(scratch, "odd");
    await mkdir(join(folder, ".git"), { recursive: true });
    expect(await findGitToplevel(folder)).toBeUndefined();
  });
});
