import { execFile } from "node:child_process";
import { chown, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scratchHome } from "./test-support/scratch-home.js";
import { readUserRepo } from "./checkpoint/exclude.js";
import { readRepoLocally } from "./repo-local.js";

const exec = promisify(execFile);

let scratch: string;
let home: string;
let project: string;
let env: Record<string, string>;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ scratch, home, project, env, dispose } = await scratchHome("zeng-repo-local-"));
});
afterEach(() => dispose());

const git = (args: string[], cwd = project) =>
  exec("git", args, { cwd, env: { ...env, GIT_CONFIG_NOSYSTEM: "1" } });

/**
 * Holds the in-process reading equal to git's (the script the snapshot runs otherwise),
 * and returns it; a null reading (left to git) fails unless `expectNull`.
 */
async function sameAsGit(folder = project) {
  const local = readRepoLocally(folder, env, true);
  const viaGit = await readUserRepo(folder, env);
  expect(local, "left to git").not.toBeNull();
  expect(local?.gitDir ?? null).toBe(viaGit.commonDir);
  expect(viaGit.atTopLevel).toBe(true);
  // The script keeps a configured excludes file only when it is a regular file.
  const configured = local?.excludesFile ?? null;
  const regular = configured
    ? await exec("test", ["-f", configured]).then(
        () => true,
        () => false,
      )
    : false;
  expect(regular ? configured : null).toBe(viaGit.excludesFile);
  return local;
}

describe("readRepoLocally", { timeout: 30_000 }, () => {
  it("reads a folder in no repository, and a repository's top level, as git does", async () => {
    expect((await sameAsGit())?.gitDir).toBeNull();
    await git(["init", "-q"]);
    expect((await sameAsGit())?.gitDir).toBe(join(project, ".git"));
    expect((await sameAsGit())?.excludesFile).toBeNull();
  });

  it("finds core.excludesFile where git does: the repository's config over the user's", async () => {
    await git(["init", "-q"]);
    for (const name of ["xdg", "dot", "repo"]) await writeFile(join(home, name), "x\n");
    await mkdir(join(home, ".config", "git"), { recursive: true });
    await writeFile(join(home, ".config", "git", "config"), "[core]\n\texcludesFile = ~/xdg\n");
    expect((await sameAsGit())?.excludesFile).toBe(join(home, "xdg"));
    await writeFile(join(home, ".gitconfig"), `[core]\n  excludesfile = "${home}/dot" # mine\n`);
    expect((await sameAsGit())?.excludesFile).toBe(join(home, "dot"));
    await git(["config", "core.excludesFile", join(home, "repo")]);
    expect((await sameAsGit())?.excludesFile).toBe(join(home, "repo"));
    // A configured file that is missing: the script drops it, as git's reads would.
    await git(["config", "core.excludesFile", join(home, "missing")]);
    await sameAsGit();
  });

  it("reads a sha256 repository's object format", async () => {
    await git(["init", "-q", "--object-format=sha256"]);
    expect((await sameAsGit())?.hashLength).toBe(32);
  });

  it("leaves to git what a plain reading could get wrong", async () => {
    // A subfolder of a repository.
    await git(["init", "-q"]);
    await mkdir(join(project, "sub"));
    expect(readRepoLocally(join(project, "sub"), env, true)).toBeNull();
    // Included config, a moved work tree, config git rejects.
    await writeFile(join(home, ".gitconfig"), "[include]\n\tpath = other\n");
    expect(readRepoLocally(project, env, true)).toBeNull();
    // The user's config is not read when not asked for.
    expect(readRepoLocally(project, env, false)).not.toBeNull();
    await rm(join(home, ".gitconfig"));
    await git(["config", "core.worktree", "/tmp"]);
    expect(readRepoLocally(project, env, true)).toBeNull();
    await git(["config", "--unset", "core.worktree"]);
    // Ignores matched without case (a repository made on macOS, say).
    await git(["config", "core.ignoreCase", "true"]);
    expect(readRepoLocally(project, env, true)).toBeNull();
    await git(["config", "core.ignoreCase", "false"]);
    expect(readRepoLocally(project, env, true)).not.toBeNull();
    await writeFile(join(project, ".git", "config"), "[core\n\tbare = false\n");
    expect(readRepoLocally(project, env, true)).toBeNull();
    // A linked work tree (its .git is a file).
    await rm(join(project, ".git"), { recursive: true });
    const main = join(scratch, "main");
    await mkdir(main);
    await git(["init", "-q"], main);
    await git(
      ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"],
      main,
    );
    await git(["worktree", "add", "-q", join(scratch, "linked")], main);
    expect(readRepoLocally(join(scratch, "linked"), env, true)).toBeNull();
    await sameAsGit(main);
  });

  it.runIf(process.geteuid?.() === 0)("leaves a repository another user owns to git", async () => {
    await git(["init", "-q"]);
    await chown(join(project, ".git"), 65534, 65534);
    expect(readRepoLocally(project, env, true)).toBeNull();
  });
});
