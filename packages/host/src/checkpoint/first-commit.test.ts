import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createFixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IN_PROCESS_LIMITS, commitFirstSnapshot } from "./first-commit.js";
import { ShadowRepo } from "./shadow-repo.js";
import { createCheckpointStore } from "./store.js";

// A small first snapshot is written in process (issue 18). What it writes must be exactly
// what git would have written: git reads these objects, this index and this ref from then on.

const exec = promisify(execFile);
const PATH = process.env.PATH ?? "/usr/bin:/bin";

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "zeng-first-commit-"));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const git = (args: string[], cwd = scratch) =>
  exec("git", args, { cwd, env: { PATH, HOME: scratch }, maxBuffer: 64 * 1024 * 1024 });

/** A project whose names and modes exercise git's orderings and kinds of file. */
async function awkwardProject() {
  const repo = await createFixtureRepo({
    files: {
      ".gitignore": "ignored.txt\nbuild/\n",
      "a.txt": "a\r\nline two\r\n",
      "a-b.txt": "sorts before a/ by its byte\n",
      "a/b.txt": "nested\n",
      "a/c/d.txt": "deeper\n",
      "a.b/e.txt": "a folder whose name sorts between a-b and a/\n",
      empty: "",
      "ünïcode name.txt": "utf-8 path\n",
      "ignored.txt": "left out\n",
      "build/out.js": "left out\n",
      "run.sh": "#!/bin/sh\necho hi\n",
      "copy.txt": "nested\n",
    },
  });
  await chmod(join(repo.root, "run.sh"), 0o755);
  await symlink("a/b.txt", join(repo.root, "link"));
  return repo;
}

describe("the first snapshot written in process", { timeout: 30_000 }, () => {
  it("stores the tree git would write, and objects git's fsck accepts", async () => {
    await using repo = await awkwardProject();
    const store = createCheckpointStore({
      checkpointsDir: join(scratch, "cp"),
      projectRoot: repo.root,
      env: { PATH, HOME: scratch },
    });
    const snap = await store.snapshot("first");
    if ("disabled" in snap) throw new Error(snap.disabled);
    expect(snap.files).toBe(11);
    // Git itself, on the same files, in a repository of its own.
    const other = join(scratch, "other.git");
    await git(["init", "-q", "--bare", other]);
    const withOther = ["--git-dir", other, "--work-tree", repo.root];
    await git([...withOther, "add", "-A"], repo.root);
    const expected = (await git([...withOther, "write-tree"], repo.root)).stdout.trim();
    const shadow = ["--git-dir", store.gitDir];
    const tree = (await git([...shadow, "rev-parse", `${snap.commit}^{tree}`])).stdout.trim();
    expect(tree).toBe(expected);
    await git([...shadow, "fsck", "--strict", "--no-dangling"]);
    // All of it in one pack (no loose object), whose index and checksums git verifies.
    const counted = (await git([...shadow, "count-objects", "-v"])).stdout;
    expect(counted).toMatch(/^count: 0$/m);
    expect(counted).toMatch(/^packs: 1$/m);
    const pack = (await readdir(join(store.gitDir, "objects", "pack"))).find((f) =>
      f.endsWith(".idx"),
    );
    const verified = await git([
      ...shadow,
      "verify-pack",
      "-v",
      join(store.gitDir, "objects", "pack", pack ?? "none"),
    ]);
    // The files (two of them the same text), their trees and the commit, each once.
    const reachable = (await git([...shadow, "rev-list", "--objects", snap.commit])).stdout;
    const objects = reachable.trim().split("\n").length;
    expect(verified.stdout).toContain(`non delta: ${objects} objects`);
    const listed = (await git([...shadow, "ls-tree", "-r", snap.commit])).stdout;
    expect(listed).toMatch(/^100755 blob \w+\trun\.sh$/m);
    expect(listed).toMatch(/^120000 blob \w+\tlink$/m);
    expect(listed).not.toMatch(/ignored\.txt|build\//);
    const body = (await git([...shadow, "cat-file", "commit", snap.commit])).stdout;
    expect(body).toMatch(/^author Z Engine <checkpoints@z-engine\.invalid> \d+ [+-]\d{4}$/m);
    expect(body).toContain("\n\nfirst\n");
  });

  it("writes an index git finds clean by stat data, so the next snapshot stores one change", async () => {
    await using repo = await awkwardProject();
    const store = createCheckpointStore({
      checkpointsDir: join(scratch, "cp"),
      projectRoot: repo.root,
      env: { PATH, HOME: scratch },
    });
    const first = await store.snapshot("first");
    if ("disabled" in first) throw new Error(first.disabled);
    const shadow = ["--git-dir", store.gitDir, "--work-tree", repo.root];
    // --quiet fails (exit 1) when any file's stat data or content differs from the index.
    await git([...shadow, "diff-files", "--quiet"], repo.root);
    const staged = (await git([...shadow, "ls-files", "-s"], repo.root)).stdout;
    const inTree = (await git([...shadow, "ls-tree", "-r", first.commit], repo.root)).stdout;
    const asIndex = inTree.replace(/^(\d+) blob (\w+)\t/gm, "$1 $2 0\t");
    expect(staged).toBe(asIndex);

    await writeFile(join(repo.root, "a/c/d.txt"), "changed\n");
    await rm(join(repo.root, "a-b.txt"));
    const second = await store.snapshot("second");
    if ("disabled" in second) throw new Error(second.disabled);
    const changed = await store.diff(first.commit, second.commit);
    expect(changed).toEqual([
      { path: "a-b.txt", status: "deleted" },
      { path: "a/c/d.txt", status: "modified" },
    ]);
    const parent = (await git(["--git-dir", store.gitDir, "rev-parse", `${second.commit}^`]))
      .stdout;
    expect(parent.trim()).toBe(first.commit);
    const restored = await store.restore(first.commit);
    if ("disabled" in restored) throw new Error(restored.disabled);
    await expect(readFile(join(repo.root, "a-b.txt"), "utf8")).resolves.toBe(
      "sorts before a/ by its byte\n",
    );
    await expect(readFile(join(repo.root, "a/c/d.txt"), "utf8")).resolves.toBe("deeper\n");
  });

  it("leaves a first snapshot above its limits to git, with the same result", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= IN_PROCESS_LIMITS.maxFiles; i++) files[`f/${i}.txt`] = `${i}\n`;
    await using repo = await createFixtureRepo({ files });
    const bin = join(scratch, "bin");
    const log = join(scratch, "git.log");
    const real = (await exec("sh", ["-c", "command -v git"], { env: { PATH } })).stdout.trim();
    await mkdir(bin);
    await writeFile(join(bin, "git"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
    await chmod(join(bin, "git"), 0o755);
    const store = createCheckpointStore({
      checkpointsDir: join(scratch, "cp"),
      projectRoot: repo.root,
      env: { PATH: `${bin}:${PATH}`, HOME: scratch },
    });
    const snap = await store.snapshot("first");
    if ("disabled" in snap) throw new Error(snap.disabled);
    expect(snap.files).toBe(IN_PROCESS_LIMITS.maxFiles + 1);
    expect(await readFile(log, "utf8")).toMatch(/update-index/);
    await git(["--git-dir", store.gitDir, "fsck", "--strict", "--no-dangling"]);
  });

  it("does not read through a folder that became a link after it was listed", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a\n" } });
    const outside = join(scratch, "outside");
    await mkdir(outside);
    await writeFile(join(outside, "secret.txt"), "not the project's\n");
    await symlink(outside, join(repo.root, "out"));
    const shadow = new ShadowRepo(join(scratch, "cp"), repo.root, { PATH, HOME: scratch });
    await shadow.init();
    // As if `out` had been a folder holding secret.txt when git listed the files.
    const made = await commitFirstSnapshot(shadow, ["a.txt", "out/secret.txt"], "m\n", null);
    if (!made) throw new Error("not written in process");
    expect(made.files).toBe(1);
    const commit = made.commit;
    const listed = (await git(["--git-dir", shadow.gitDir, "ls-tree", "-r", "--name-only", commit]))
      .stdout;
    expect(listed).toBe("a.txt\n");
  });
});
