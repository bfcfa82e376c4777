import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createFixtureRepo, fixtureGitEnv } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HostError } from "../errors.js";
import { CHECKPOINT_REF } from "./shadow-repo.js";
import { type CheckpointStore, type Snapshot, createCheckpointStore } from "./store.js";

const exec = promisify(execFile);
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() };

let checkpointsDir: string;
beforeEach(async () => {
  checkpointsDir = await mkdtemp(join(tmpdir(), "zeng-checkpoints-"));
});
afterEach(async () => {
  await rm(checkpointsDir, { recursive: true, force: true });
});

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

describe("snapshot commits and the shadow index", () => {
  it("keeps a label with quotes, dollars, backticks and lines as written, leaving no file behind", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env });
    const label = 'it\'s "quoted" $HOME `id` $(id) ü\n\nsecond paragraph';
    const first = await snap(store, label);
    const message = await shadowGit(store, "log", "-1", "--format=%B", first.commit);
    expect(message.startsWith(`${label}\n\nZ-Engine-Unstorable: []`)).toBe(true);
    expect((await readdir(store.gitDir)).filter((name) => name.includes("MESSAGE"))).toEqual([]);
  });

  it("counts the files right over many snapshots, through a split index", async () => {
    await using repo = await createFixtureRepo({ files: { "seed.txt": "s" } });
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env });
    for (let step = 0; step < 10; step++) {
      for (let i = 0; i < 7; i++) {
        const path = `d${(step + i) % 3}/f${(step * 5 + i * 3) % 17}.txt`;
        if ((step + i) % 4 === 0) await unlink(repo.path(path)).catch(() => {});
        else await repo.write(path, `step ${step} ${i}`);
      }
      const result = await snap(store, `step ${step}`);
      const tree = await shadowGit(store, "ls-tree", "-r", "--name-only", result.commit);
      expect(result.files).toBe(tree.split("\n").filter(Boolean).length);
      expect(await store.diff(result.commit, "worktree")).toEqual([]);
    }
    const names = await readdir(store.gitDir);
    expect(names.some((name) => name.startsWith("sharedindex."))).toBe(true);
  });

  it("fails loudly when another process moved the ref, then chains on where it points", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    const store = createCheckpointStore({ checkpointsDir, projectRoot: repo.root, env });
    const first = await snap(store, "first");
    await repo.write("b.txt", "b");
    const second = await snap(store, "second");
    await shadowGit(store, "update-ref", CHECKPOINT_REF, first.commit);
    await repo.write("c.txt", "c");
    const error = await store.snapshot("third").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).code).toBe("gitFailed");
    const fourth = await snap(store, "fourth");
    const log = await shadowGit(store, "rev-list", CHECKPOINT_REF);
    expect(log.trim().split("\n")).toEqual([fourth.commit, first.commit]);
    expect(second.commit).not.toBe(first.commit);
  });
});
