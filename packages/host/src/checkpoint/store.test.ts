import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  readdir,
  rename,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type FixtureRepo, createFixtureRepo, fixtureGitEnv } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../errors.js";
import { type CheckpointStore, type Snapshot, createCheckpointStore } from "./store.js";
import { CHECKPOINT_REF } from "./shadow-repo.js";

const exec = promisify(execFile);
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() };

let checkpointsDir: string;
beforeEach(async () => {
  checkpointsDir = await mkdtemp(join(tmpdir(), "zeng-checkpoints-"));
});
afterEach(async () => {
  await rm(checkpointsDir, { recursive: true, force: true });
});

function open(repo: FixtureRepo, extra: Partial<Parameters<typeof createCheckpointStore>[0]> = {}) {
  return createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env, ...extra });
}

async function snap(store: CheckpointStore, label = "test"): Promise<Snapshot> {
  const result = await store.snapshot(label);
  if ("disabled" in result) throw new Error(result.disabled);
  return result;
}

async function shadowGit(store: CheckpointStore, ...args: string[]): Promise<string> {
  const { stdout } = await exec("git", args, {
    env: { ...fixtureGitEnv(), GIT_DIR: store.gitDir },
  });
  return stdout;
}

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

describe("createCheckpointStore: snapshot and restore", () => {
  it("brings back changed, deleted, renamed, binary, mode and symlink changes, and removes new files", async () => {
    const binary = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7) % 256);
    await using repo = await createFixtureRepo({
      files: {
        "a.txt": "alpha\n",
        "bin.dat": binary,
        "run.sh": { content: "#!/bin/sh\necho hi\n", mode: 0o755 },
        "old-name.txt": "renamed\n",
        "gone.txt": "gone\n",
        link: { symlink: "a.txt" },
      },
    });
    const store = open(repo);
    const first = await snap(store, "before");
    expect(first.files).toBe(6);
    expect(first.unstorable).toEqual([]);
    await writeFile(repo.path("a.txt"), "changed\n");
    await writeFile(repo.path("bin.dat"), Uint8Array.from([0, 1, 2]));
    await chmod(repo.path("run.sh"), 0o644);
    await rename(repo.path("old-name.txt"), repo.path("new-name.txt"));
    await unlink(repo.path("gone.txt"));
    await unlink(repo.path("link"));
    await symlink("bin.dat", repo.path("link"));
    await repo.write("created/deep/file.txt", "new");

    const result = await store.restore(first.commit);
    if ("disabled" in result) throw new Error(result.disabled);
    expect(result.restored).toEqual([
      "a.txt",
      "bin.dat",
      "gone.txt",
      "link",
      "old-name.txt",
      "run.sh",
    ]);
    expect(result.removed).toEqual(["created/deep/file.txt", "new-name.txt"]);
    expect(result.unstorable).toEqual([]);
    expect(await repo.read("a.txt")).toBe("alpha\n");
    expect(new Uint8Array(await readFile(repo.path("bin.dat")))).toEqual(binary);
    expect((await stat(repo.path("run.sh"))).mode & 0o777).toBe(0o755);
    expect(await readlink(repo.path("link"))).toBe("a.txt");
    expect(await repo.read("old-name.txt")).toBe("renamed\n");
    expect(await repo.read("gone.txt")).toBe("gone\n");
    await expect(lstat(repo.path("created"))).rejects.toThrow();
    expect(await store.diff(first.commit, "worktree")).toEqual([]);
    // The safety snapshot holds the state before the restore, so the restore can be undone.
    const undo = await store.restore(result.safetySnapshot.commit);
    if ("disabled" in undo) throw new Error(undo.disabled);
    expect(await repo.read("a.txt")).toBe("changed\n");
    expect(await repo.read("created/deep/file.txt")).toBe("new");
  });

  it("rewrites only the files that differ", async () => {
    await using repo = await createFixtureRepo({
      files: { "same.txt": "same", "diff.txt": "one" },
    });
    const store = open(repo);
    const first = await snap(store);
    await writeFile(repo.path("diff.txt"), "two");
    const before = (await stat(repo.path("same.txt"))).ino;
    const mtime = (await stat(repo.path("same.txt"))).mtimeMs;
    const result = await store.restore(first.commit);
    if ("disabled" in result) throw new Error(result.disabled);
    expect(result.restored).toEqual(["diff.txt"]);
    expect((await stat(repo.path("same.txt"))).ino).toBe(before);
    expect((await stat(repo.path("same.txt"))).mtimeMs).toBe(mtime);
  });

  it("leaves empty folders alone and removes folders holding only files created since", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    await mkdir(repo.path("empty/inner"), { recursive: true });
    const store = open(repo);
    const first = await snap(store);
    await repo.write("fresh/x.txt", "x");
    const result = await store.restore(first.commit);
    if ("disabled" in result) throw new Error(result.disabled);
    expect(result.removed).toEqual(["fresh/x.txt"]);
    expect((await stat(repo.path("empty/inner"))).isDirectory()).toBe(true);
    await expect(lstat(repo.path("fresh"))).rejects.toThrow();
  });

  it("does not store a file over 8 MiB, lists it, and leaves it alone on restore", async () => {
    await using repo = await createFixtureRepo({ files: { "small.txt": "s", "grows.txt": "g" } });
    const big = Buffer.alloc(8 * 1024 * 1024 + 1, 7);
    await writeFile(repo.path("big.bin"), big);
    const store = open(repo);
    const first = await snap(store);
    expect(first.unstorable).toEqual(["big.bin"]);
    expect(first.files).toBe(2);
    expect(await shadowGit(store, "ls-tree", "-r", "--name-only", first.commit)).not.toContain(
      "big.bin",
    );
    // A stored file that grows past the limit leaves the next snapshot.
    await writeFile(repo.path("grows.txt"), big);
    const second = await snap(store);
    expect(second.unstorable).toEqual(["big.bin", "grows.txt"]);
    expect(second.files).toBe(1);
    await writeFile(repo.path("big.bin"), Buffer.alloc(9 * 1024 * 1024, 1));
    await writeFile(repo.path("small.txt"), "changed");
    const result = await store.restore(first.commit);
    if ("disabled" in result) throw new Error(result.disabled);
    expect(result.restored).toEqual(["small.txt"]);
    expect(result.unstorable).toEqual(["big.bin", "grows.txt"]);
    expect((await stat(repo.path("big.bin"))).size).toBe(9 * 1024 * 1024);
    expect((await stat(repo.path("grows.txt"))).size).toBe(big.length);
  });

  it("never stores or touches ignored files, also ones ignored after a snapshot", async () => {
    await using repo = await createFixtureRepo({
      files: { ".gitignore": ".env\n", "a.txt": "a", "later.log": "log v1" },
    });
    await writeFile(repo.path(".env"), "SECRET=1");
    const store = open(repo);
    const first = await snap(store);
    expect(await shadowGit(store, "ls-tree", "-r", "--name-only", first.commit)).not.toContain(
      ".env",
    );
    await writeFile(repo.path(".env"), "SECRET=2");
    await writeFile(repo.path(".gitignore"), ".env\n*.log\n");
    await writeFile(repo.path("later.log"), "log v2");
    await repo.write("new.log", "ignored and new");
    await writeFile(repo.path("a.txt"), "changed");
    const result = await store.restore(first.commit);
    if ("disabled" in result) throw new Error(result.disabled);
    expect(result.restored).toEqual([".gitignore", "a.txt"]);
    expect(result.unstorable).toEqual(["later.log"]);
    expect(await repo.read(".env")).toBe("SECRET=2");
    expect(await repo.read("later.log")).toBe("log v2");
    expect(await repo.read("new.log")).toBe("ignored and new");
  });

  it("leaves the user's repository, index, config, hooks and uncommitted state unchanged", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a", "b.txt": "b" } });
    await repo.write(".git/hooks/pre-commit", {
      content: `#!/bin/sh\ntouch ${repo.path("hook-ran")}\n`,
      mode: 0o755,
    });
    await writeFile(repo.path("a.txt"), "staged");
    await repo.git("add", "a.txt");
    await writeFile(repo.path("b.txt"), "unstaged");
    await repo.write("untracked.txt", "u");
    const state = async () => ({
      index: sha(await readFile(repo.path(".git/index"))),
      config: await repo.read(".git/config"),
      hooks: (await readdir(repo.path(".git/hooks"))).sort(),
      status: await repo.git("status", "--porcelain"),
      refs: await repo.git("for-each-ref"),
      staged: await repo.git("diff", "--cached"),
    });
    const before = await state();
    const hostileEnv = {
      ...env,
      GIT_DIR: repo.path(".git"),
      GIT_INDEX_FILE: repo.path(".git/index"),
    };
    const store = open(repo, { env: hostileEnv });
    const first = await snap(store);
    await writeFile(repo.path("b.txt"), "later");
    await repo.write("c.txt", "c");
    await store.restore(first.commit);
    expect(await state()).toEqual(before);
    await expect(lstat(repo.path("hook-ran"))).rejects.toThrow();
    expect(await repo.read("b.txt")).toBe("unstaged");
  });

  it("leaves out .git folders, nested repositories (whole) and .z-engine/worktrees/", async () => {
    await using repo = await createFixtureRepo({
      files: { "a.txt": "a", ".z-engine/settings.toml": "x = 1\n" },
    });
    await repo.write(".z-engine/worktrees/agent-1/file.txt", "w");
    await repo.write("fake/.git/HEAD", "ref: refs/heads/main\n");
    await repo.write("fake/code.txt", "c");
    await repo.write("nested/lib.txt", "l");
    await exec("git", ["init", "-q"], { cwd: repo.path("nested"), env: fixtureGitEnv() });
    const store = open(repo);
    const first = await snap(store);
    const tree = await shadowGit(store, "ls-tree", "-r", "--name-only", first.commit);
    expect(tree.split("\n").filter(Boolean).sort()).toEqual([
      ".z-engine/settings.toml",
      "a.txt",
      "fake/code.txt",
    ]);
  });

  it("works in a folder that is not a git repository", async () => {
    await using repo = await createFixtureRepo({
      git: false,
      files: { "a.txt": "a", "d/b.txt": "b" },
    });
    const store = open(repo);
    const first = await snap(store);
    expect(first.files).toBe(2);
    await writeFile(repo.path("a.txt"), "changed");
    await repo.write("d/c.txt", "c");
    const result = await store.restore(first.commit);
    if ("disabled" in result) throw new Error(result.disabled);
    expect(result).toMatchObject({ restored: ["a.txt"], removed: ["d/c.txt"] });
    await expect(lstat(repo.path(".git"))).rejects.toThrow();
  });

  it("honours the ignores of a repository above a project in a subfolder", async () => {
    await using repo = await createFixtureRepo({
      files: { ".gitignore": "*.tmp\n", "pkg/a.txt": "a" },
    });
    await repo.write("pkg/scratch.tmp", "t");
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.path("pkg"), env });
    const first = await snap(store);
    expect(await shadowGit(store, "ls-tree", "-r", "--name-only", first.commit)).toBe("a.txt\n");
  });
});

describe("createCheckpointStore: chaining, diff, limits and bad input", () => {
  it("chains snapshots on one ref, also when taken concurrently", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    const store = open(repo);
    const snaps = await Promise.all([snap(store, "1"), snap(store, "2"), snap(store, "3")]);
    const log = await shadowGit(store, "rev-list", CHECKPOINT_REF);
    expect(log.trim().split("\n")).toEqual(snaps.map((s) => s.commit).reverse());
  });

  it("compares two snapshots and a snapshot with the work tree", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a", "b.txt": "b" } });
    const store = open(repo);
    const first = await snap(store);
    await writeFile(repo.path("a.txt"), "changed");
    await unlink(repo.path("b.txt"));
    await repo.write("c.txt", "c");
    const expected = [
      { path: "a.txt", status: "modified" },
      { path: "b.txt", status: "deleted" },
      { path: "c.txt", status: "added" },
    ];
    expect(await store.diff(first.commit, "worktree")).toEqual(expected);
    const second = await snap(store);
    expect(await store.diff(first.commit, second.commit)).toEqual(expected);
    expect(await store.diff(second.commit, "worktree")).toEqual([]);
  });

  it("turns itself off above the file limit, without storing anything", async () => {
    await using repo = await createFixtureRepo({ files: { a: "1", b: "2", c: "3", d: "4" } });
    const store = open(repo, { maxFiles: 3 });
    const result = await store.snapshot("too big");
    expect(result).toEqual({ disabled: expect.stringContaining("4 files, more than 3") });
    await expect(shadowGit(store, "rev-parse", "--verify", CHECKPOINT_REF)).rejects.toThrow();
  });

  it("rejects an unknown or malformed commit with checkpointNotFound and changes nothing", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    const store = open(repo);
    await snap(store);
    await writeFile(repo.path("a.txt"), "changed");
    for (const bad of ["0".repeat(40), "--all", "HEAD~999"]) {
      const error = await store.restore(bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HostError);
      expect((error as HostError).code).toBe("checkpointNotFound");
    }
    expect(await repo.read("a.txt")).toBe("changed");
  });
});
