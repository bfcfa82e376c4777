import { appendFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { engineConfigText } from "./engine-repository.js";
import { runGit, runGitScript } from "./git.js";
import { scriptRefusal, userRepositoryRefusal } from "./git-read-only.js";
import { createHostileRepo } from "./test-support/hostile-repo.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/nonexistent" };
let scratch: string;
let repo: FixtureRepo;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "zeng-door-"));
  repo = await createFixtureRepo({ files: { "a.txt": "a\n" } });
});
afterEach(async () => {
  await repo.dispose();
  await rm(scratch, { recursive: true, force: true });
});

const user = (folder: string) => ({ kind: "user" as const, folder });

describe("the git door on the user's repository", () => {
  it("runs read-only commands, with GIT_DIR and GIT_WORK_TREE the engine found", async () => {
    // A relocated work tree in the project's config is not what the engine uses.
    await repo.git("config", "core.worktree", "/");
    const out = await runGit(["rev-parse", "--show-toplevel", "--absolute-git-dir"], {
      repo: user(repo.root),
      env,
    });
    expect(out.stdout.toString("utf8").trim().split("\n")).toEqual([repo.root, repo.path(".git")]);
    const listed = await runGit(["ls-files", "-z"], { repo: user(repo.path(".")), env });
    expect(listed.stdout.toString("utf8")).toBe("a.txt\0");
  });

  it("refuses every command that could hand a file to a driver, before starting anything", async () => {
    await using hostile = await createHostileRepo();
    await hostile.makeIndexRacy();
    const refused = [
      ["status"],
      ["add", "-A"],
      ["diff"],
      ["checkout", "--", "a.txt"],
      ["ls-files", "-m"],
      ["ls-files", "-tmo"],
      ["cat-file", "--filters", "HEAD:a.txt"],
      ["config", "--add", "x.y", "z"],
      ["-c", "core.fsmonitor=x", "status"],
    ];
    for (const args of refused) {
      await expect(
        runGit(args, { repo: user(hostile.repo.root), env: hostile.env }),
      ).rejects.toMatchObject({ code: "gitRefused" });
    }
    const script = 'git "$@" ls-files -z --cached\ngit "$@" add -A\n';
    await expect(
      runGitScript("s", script, { repo: user(hostile.repo.root), env: hostile.env }),
    ).rejects.toMatchObject({ code: "gitRefused" });
    await expect(
      runGit(["rev-parse", "HEAD"], {
        repo: user(hostile.repo.root),
        set: { GIT_DIR: "/elsewhere" },
      }),
    ).rejects.toMatchObject({ code: "gitRefused" });
    expect(await hostile.ran()).toEqual([]);
  });

  it("tells which commands and scripts are read-only", () => {
    expect(userRepositoryRefusal(["config", "--path", "--get", "core.excludesFile"])).toBeNull();
    expect(userRepositoryRefusal(["ls-files", "-z", "-o", "-i", "--exclude-standard"])).toBeNull();
    expect(userRepositoryRefusal(["cat-file", "--batch"])).toBeNull();
    expect(userRepositoryRefusal(["config", "core.x", "y"])).not.toBeNull();
    expect(userRepositoryRefusal(["merge-file", "a", "b", "c"])).not.toBeNull();
    const shadowLine =
      'GIT_DIR="$ZENG_GIT_DIR" GIT_WORK_TREE="$ZENG_WORK_TREE" \\\n  git "$@" ls-files -m';
    expect(scriptRefusal(shadowLine, true)).toBeNull();
    expect(scriptRefusal(shadowLine, false)).not.toBeNull();
    expect(scriptRefusal("git status", false)).toMatch(/not written/);
    expect(scriptRefusal('x=$(git "$@" rev-parse --show-toplevel) || exit 0', false)).toBeNull();
  });
});

describe("the git door on an engine repository", () => {
  it("runs on a repository whose config the engine wrote, and refuses one that names a program", async () => {
    const gitDir = join(scratch, "engine");
    for (const dir of ["objects", "refs"]) await mkdir(join(gitDir, dir), { recursive: true });
    await writeFile(join(gitDir, "HEAD"), "ref: refs/heads/main\n");
    await writeFile(join(gitDir, "config"), engineConfigText());
    const engine = { kind: "engine" as const, gitDir, workTree: repo.root };
    const out = await runGit(["rev-parse", "--absolute-git-dir"], { repo: engine, env });
    expect(out.stdout.toString("utf8").trim()).toBe(gitDir);
    const marker = join(scratch, "ran-clean");
    await appendFile(join(gitDir, "config"), `[filter "evil"]\n\tclean = touch ${marker}\n`);
    await writeFile(repo.path(".gitattributes"), "* filter=evil\n");
    await expect(runGit(["add", "-A"], { repo: engine, env })).rejects.toMatchObject({
      code: "gitRefused",
    });
    await writeFile(join(gitDir, "config"), `[include]\n\tpath = ${repo.path(".git/config")}\n`);
    await expect(runGit(["status"], { repo: engine, env })).rejects.toMatchObject({
      code: "gitRefused",
    });
    await writeFile(join(gitDir, "config"), engineConfigText());
    await writeFile(join(gitDir, "commondir"), `${repo.path(".git")}\n`);
    await expect(runGit(["status"], { repo: engine, env })).rejects.toMatchObject({
      code: "gitRefused",
    });
    expect((await readdir(scratch)).filter((n) => n.startsWith("ran-"))).toEqual([]);
  });
});
