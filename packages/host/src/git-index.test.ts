import { execFile } from "node:child_process";
import { lstat, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { type FixtureRepo, createFixtureRepo, fixtureGitEnv } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { countIndexEntries, parseIndex } from "./git-index.js";

const exec = promisify(execFile);

/** `git ls-files -s -z` as [stage, path as a byte string] pairs. */
async function gitStages(repo: FixtureRepo, ...config: string[]): Promise<[number, string][]> {
  const { stdout } = await exec("git", [...config, "ls-files", "-s", "-z"], {
    cwd: repo.root,
    env: fixtureGitEnv(),
    encoding: "buffer",
  });
  const records = stdout.toString("latin1").split("\0").slice(0, -1);
  return records.map((record) => {
    const [meta = "", path = ""] = record.split("\t");
    return [Number(meta.split(" ")[2]), path];
  });
}

async function parsed(repo: FixtureRepo) {
  const index = parseIndex(await readFile(repo.path(".git/index")), 20, true);
  if (index === null) throw new Error("index not understood");
  return index;
}

describe("parseIndex", () => {
  it.each([2, 3, 4])("reads every entry of a version %i index as git lists it", async (version) => {
    await using repo = await createFixtureRepo({
      files: { "a.txt": "a", "dir/b.txt": "bb", "dir/sub/c.txt": "ccc", "ü/ñ.txt": "n" },
    });
    await writeFile(Buffer.from(`${repo.root}/raw-\xff.bin`, "latin1"), "x");
    await repo.write("intent.txt", "later");
    await repo.git("add", "-A");
    await repo.git("add", "-N", "intent.txt");
    await repo.git("update-index", "--index-version", String(version));
    await repo.git("update-index", "--refresh");
    const index = await parsed(repo);
    expect(index.entries.map((e) => [e.stage, e.path])).toEqual(await gitStages(repo));
    for (const entry of index.entries) {
      const path = Buffer.from(`${repo.root}/${entry.path}`, "latin1");
      const info = await lstat(path, { bigint: true });
      const raw = Buffer.from(entry.mtimeAndSize, "latin1");
      expect(raw.readUInt32BE(0)).toBe(Number(info.mtimeNs / 1_000_000_000n));
      expect(raw.readUInt32BE(4)).toBe(Number(info.mtimeNs % 1_000_000_000n));
      expect(raw.readUInt32BE(8)).toBe(Number(info.size));
    }
  });

  it("reads the stages of an unmerged path", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    const blob = (await repo.git("rev-parse", "HEAD:a.txt")).trim();
    const info = [1, 2, 3].map((stage) => `100644 ${blob} ${stage}\tm.txt`).join("\n");
    await exec("sh", ["-c", `printf '%s\\n' "$1" | git update-index --index-info`, "sh", info], {
      cwd: repo.root,
      env: fixtureGitEnv(),
    });
    const index = await parsed(repo);
    expect(index.entries.map((e) => [e.stage, e.path])).toEqual(await gitStages(repo));
    expect(index.entries.filter((e) => e.path === "m.txt").map((e) => e.stage)).toEqual([1, 2, 3]);
  });

  it("never throws nor invents entries for a truncated, damaged or foreign file", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a", "d/b.txt": "b" } });
    await repo.git("update-index", "--index-version", "4");
    const good = await readFile(repo.path(".git/index"));
    const entries = parseIndex(good, 20, true)?.entries;
    expect(entries?.length).toBe(2);
    for (let length = 0; length < good.length; length++) {
      const cut = parseIndex(good.subarray(0, length), 20, true);
      // Cut in the extensions, the rest can pass for a checksum; cut in the entries, never.
      if (cut !== null) expect(cut.entries).toEqual(entries);
    }
    for (let at = 0; at < good.length; at++) {
      const damaged = Buffer.from(good);
      damaged[at] = (damaged[at]! + 0x80) % 256;
      expect(() => parseIndex(damaged, 20, true)).not.toThrow();
    }
    const foreign = Buffer.from(good);
    foreign.writeUInt32BE(5, 4);
    expect(parseIndex(foreign, 20, true)).toBeNull();
    expect(parseIndex(Buffer.from("not an index at all, not at all"), 20, true)).toBeNull();
  });
});

describe("countIndexEntries", () => {
  it("counts a split index right through many changes, and 0 for no index", async () => {
    await using repo = await createFixtureRepo({ files: { "seed.txt": "s" } });
    const split = ["-c", "core.splitIndex=true", "-c", "splitIndex.maxPercentChange=30"];
    const gitDir = repo.path(".git");
    for (let step = 0; step < 12; step++) {
      for (let i = 0; i < 9; i++) {
        const path = `d${(step + i) % 4}/f${(step * 7 + i * 3) % 23}.txt`;
        if ((step + i) % 4 === 0) await rm(repo.path(path), { force: true });
        else await repo.write(path, `step ${step} ${i}`);
      }
      await repo.git(...split, "add", "-A");
      const expected = (await gitStages(repo, ...split)).length;
      expect(await countIndexEntries(repo.path(".git/index"), gitDir, 20)).toBe(expected);
    }
    expect((await readdir(gitDir)).some((name) => name.startsWith("sharedindex."))).toBe(true);
    expect(await countIndexEntries(repo.path(".git/none"), gitDir, 20)).toBe(0);
  });

  it("returns null when a split index's shared part is gone", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    await repo.git("update-index", "--split-index");
    const gitDir = repo.path(".git");
    for (const name of await readdir(gitDir)) {
      if (name.startsWith("sharedindex.")) await rm(join(gitDir, name));
    }
    expect(await countIndexEntries(repo.path(".git/index"), gitDir, 20)).toBeNull();
  });
});
