import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createFixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CHECKPOINT_REF } from "./shadow-repo.js";
import { createCheckpointStore } from "./store.js";

// The first snapshot of a session sits on the first mutating tool's path (issue 18): each
// git process a large Node process spawns costs, so the count is what these tests hold.

const exec = promisify(execFile);
const PATH = process.env.PATH ?? "/usr/bin:/bin";

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "zeng-first-snapshot-"));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** A PATH whose `git` logs each call (one line) before running the real git. */
async function countingGit(): Promise<{ env: Record<string, string>; calls(): Promise<string[]> }> {
  const real = (await exec("sh", ["-c", "command -v git"], { env: { PATH } })).stdout.trim();
  const bin = join(scratch, "bin");
  const log = join(scratch, "git.log");
  await exec("mkdir", ["-p", bin]);
  // Each line: the caller's process id, then the arguments.
  await writeFile(
    join(bin, "git"),
    `#!/bin/sh\necho "$PPID $*" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await chmod(join(bin, "git"), 0o755);
  return {
    env: { PATH: `${bin}:${PATH}`, HOME: scratch },
    calls: async () => (await readFile(log, "utf8").catch(() => "")).split("\n").filter(Boolean),
  };
}

const shadowGit = (gitDir: string, args: string[]) =>
  exec("git", [`--git-dir=${gitDir}`, ...args], { env: { PATH, HOME: scratch } });

describe("a session's first snapshot", { timeout: 30_000 }, () => {
  it("makes a new shadow repository without git init or a call per setting", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a\r\n", "b.txt": "b\n" } });
    const git = await countingGit();
    const checkpointsDir = join(scratch, "cp");
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env: git.env });
    const snap = await store.snapshot("first");
    if ("disabled" in snap) throw new Error(snap.disabled);
    expect(snap.files).toBe(2);
    // A small project in a plain repository: the user's repository is read, the files
    // listed and the snapshot written in process, without any git process.
    expect(await git.calls()).toEqual([]);
    for (const [key, value] of [
      ["core.autocrlf", "false"],
      ["core.safecrlf", "false"],
      ["core.symlinks", "true"],
      ["core.filemode", "true"],
      ["core.quotepath", "false"],
      ["index.version", "4"],
      ["gc.auto", "0"],
    ] as const) {
      const out = await shadowGit(store.gitDir, ["config", "--get", key]);
      expect(out.stdout.trim(), key).toBe(value);
    }
    // Stored byte for byte: the CRLF survives.
    const blob = await shadowGit(store.gitDir, ["show", `${snap.commit}:a.txt`]);
    expect(blob.stdout).toBe("a\r\n");
  });

  it("reads the user's repository and lists the files in one script when a plain reading cannot", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a\n", "b.txt": "b\n" } });
    const git = await countingGit();
    // Config that includes another file is git's to read.
    await writeFile(join(scratch, ".gitconfig"), "[include]\n\tpath = more\n");
    const checkpointsDir = join(scratch, "cp");
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env: git.env });
    const snap = await store.snapshot("first");
    if ("disabled" in snap) throw new Error(snap.disabled);
    expect(snap.files).toBe(2);
    const calls = await git.calls();
    // config, rev-parse and ls-files, all from one script; no commit script (in process).
    expect(calls.length).toBe(3);
    expect(new Set(calls.map((c) => c.split(" ")[0])).size).toBe(1);
    expect(calls.filter((c) => / config /.test(c) && !/excludesFile/.test(c))).toEqual([]);
  });

  it("opens an existing shadow repository without asking git for its format or its ref", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a\n" } });
    const checkpointsDir = join(scratch, "cp");
    const first = await createCheckpointStore({
      checkpointsDir,
      projectRoot: repo.root,
      env: { PATH, HOME: scratch },
    }).snapshot("one");
    if ("disabled" in first) throw new Error(first.disabled);
    await writeFile(join(repo.root, "a.txt"), "changed\n");
    const git = await countingGit();
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env: git.env });
    const second = await store.snapshot("two");
    if ("disabled" in second) throw new Error(second.disabled);
    const calls = await git.calls();
    expect(calls.filter((c) => /rev-parse (-q --verify|--show-object-format)/.test(c))).toEqual([]);
    expect(calls.length).toBeLessThanOrEqual(7);
    const parent = await shadowGit(store.gitDir, ["rev-parse", `${second.commit}^`]);
    expect(parent.stdout.trim()).toBe(first.commit);
  });

  it("warmed ahead, a snapshot starts no process", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a\n" } });
    const git = await countingGit();
    const store = createCheckpointStore({
      checkpointsDir: join(scratch, "cp"),
      projectRoot: repo.root,
      env: git.env,
    });
    await store.warm();
    const warmed = await git.calls();
    expect(warmed.some((c) => /config --path --get core\.excludesFile/.test(c))).toBe(true);
    await expect(readFile(join(store.gitDir, "HEAD"), "utf8")).resolves.toContain("refs/heads/");
    const snap = await store.snapshot("first");
    if ("disabled" in snap) throw new Error(snap.disabled);
    expect(snap.files).toBe(1);
    // The listing, the objects, the index, the commit and the ref: all in process.
    expect((await git.calls()).slice(warmed.length)).toEqual([]);
  });

  it("chains on the checkpoint ref after git packed it", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a\n" } });
    const checkpointsDir = join(scratch, "cp");
    const env = { PATH, HOME: scratch };
    const first = await createCheckpointStore({
      checkpointsDir,
      projectRoot: repo.root,
      env,
    }).snapshot("one");
    if ("disabled" in first) throw new Error(first.disabled);
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env });
    await shadowGit(store.gitDir, ["pack-refs", "--all"]);
    await expect(readFile(join(store.gitDir, CHECKPOINT_REF), "utf8")).rejects.toThrow();
    await writeFile(join(repo.root, "a.txt"), "changed\n");
    const second = await store.snapshot("two");
    if ("disabled" in second) throw new Error(second.disabled);
    const parent = await shadowGit(store.gitDir, ["rev-parse", `${second.commit}^`]);
    expect(parent.stdout.trim()).toBe(first.commit);
  });

  it("honours the repository's info/exclude, and skips one that is not a regular file", async () => {
    await using repo = await createFixtureRepo({
      files: { "a.txt": "a\n", "secret.env": "KEY=1\n" },
    });
    const exclude = join(repo.root, ".git", "info", "exclude");
    const env = { PATH, HOME: scratch };
    const listed = async (commit: string, gitDir: string) =>
      (await shadowGit(gitDir, ["ls-tree", "-r", "--name-only", commit])).stdout;
    await writeFile(exclude, "secret.env\n");
    const store = createCheckpointStore({
      checkpointsDir: join(scratch, "one"),
      projectRoot: repo.root,
      env,
    });
    const snap = await store.snapshot("first");
    if ("disabled" in snap) throw new Error(snap.disabled);
    expect(await listed(snap.commit, store.gitDir)).toBe("a.txt\n");

    // A FIFO would block a reader forever: it is not read, by the script or by warm(), as
    // info/exclude or as an excludes file the repository's own config names.
    await rm(exclude);
    await exec("mkfifo", [exclude]);
    const fifo = join(scratch, "excludes.fifo");
    await exec("mkfifo", [fifo]);
    await exec("git", ["config", "core.excludesFile", fifo], { cwd: repo.root, env });
    for (const warmFirst of [false, true]) {
      const other = createCheckpointStore({
        checkpointsDir: join(scratch, `fifo-${warmFirst}`),
        projectRoot: repo.root,
        env,
      });
      if (warmFirst) await other.warm();
      const taken = await other.snapshot("first");
      if ("disabled" in taken) throw new Error(taken.disabled);
      expect(await listed(taken.commit, other.gitDir)).toBe("a.txt\nsecret.env\n");
    }
  });
});
