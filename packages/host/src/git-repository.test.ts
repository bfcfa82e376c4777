import { execFile } from "node:child_process";
import { chown, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fixtureGitEnv } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findGitRepository } from "./git-repository.js";

const exec = promisify(execFile);
let scratch: string;
beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "zeng-find-repo-")));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) => exec("git", args, { cwd, env: fixtureGitEnv() });

/** What git's own discovery answers (as the engine runs it: bare repositories refused). */
async function gitSays(folder: string) {
  const out = await exec(
    "git",
    [
      "-c",
      "safe.bareRepository=explicit",
      "rev-parse",
      "--path-format=absolute",
      "--show-toplevel",
      "--absolute-git-dir",
      "--git-common-dir",
    ],
    { cwd: folder, env: { ...fixtureGitEnv(), GIT_CEILING_DIRECTORIES: scratch } },
  ).catch(() => null);
  if (!out) return null;
  const [workTree, gitDir, commonDir] = out.stdout.trim().split("\n");
  return { workTree, gitDir, commonDir };
}

async function committed(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await git(dir, "init", "-q");
  await writeFile(join(dir, "a.txt"), "a\n");
  await git(dir, "add", "a.txt");
  await git(dir, "commit", "-qm", "one");
}

describe("findGitRepository finds what git's discovery finds", () => {
  it("at the top, deep inside, in a linked worktree, and past a .git folder that is none", async () => {
    const repo = join(scratch, "repo");
    await committed(repo);
    await mkdir(join(repo, "a", "b"), { recursive: true });
    const tree = join(scratch, "tree");
    await git(repo, "worktree", "add", "-q", tree);
    const odd = join(repo, "odd");
    await mkdir(join(odd, ".git"), { recursive: true });
    for (const folder of [repo, join(repo, "a", "b"), tree, odd]) {
      expect(findGitRepository(folder)).toEqual(await gitSays(folder));
    }
    expect(findGitRepository(tree)?.commonDir).toBe(join(repo, ".git"));
  });

  it("finds none outside a repository, in a bare one, through a broken .git file, or another user's", async () => {
    const plain = join(scratch, "plain");
    await mkdir(plain);
    const repo = join(scratch, "repo");
    await committed(repo);
    const bare = join(repo, "vendor", "bare");
    await git(scratch, "init", "-q", "--bare", bare);
    const broken = join(repo, "broken");
    await mkdir(broken);
    await writeFile(join(broken, ".git"), "gitdir: /nowhere\n");
    const theirs = join(scratch, "theirs");
    await committed(theirs);
    await chown(join(theirs, ".git"), 4242, 4242);
    for (const folder of [plain, bare, broken, theirs]) {
      expect(findGitRepository(folder)).toBeNull();
      expect(await gitSays(folder)).toBeNull();
    }
  });
});
