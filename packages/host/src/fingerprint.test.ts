import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, unlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createFixtureRepo } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { HostError } from "./errors.js";
import { fingerprint } from "./fingerprint.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

describe("fingerprint", () => {
  it("changes when a tracked file changes, a file is added or one is deleted", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a", "src/b.ts": "b" } });
    const first = await fingerprint(repo.root, { env });
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(await fingerprint(repo.root, { env })).toBe(first);
    await writeFile(repo.path("a.txt"), "aa");
    const second = await fingerprint(repo.root, { env });
    expect(second).not.toBe(first);
    await writeFile(repo.path("new.txt"), "n");
    const third = await fingerprint(repo.root, { env });
    expect(third).not.toBe(second);
    await unlink(repo.path("src/b.ts"));
    expect(await fingerprint(repo.root, { env })).not.toBe(third);
  });

  it("sees a same-size rewrite of a tracked file, and of an untracked one by its mtime", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    await repo.write("u.txt", "u");
    await utimes(repo.path("u.txt"), 1_000, 1_000);
    const before = await fingerprint(repo.root, { env });
    await writeFile(repo.path("a.txt"), "b");
    const second = await fingerprint(repo.root, { env });
    expect(second).not.toBe(before);
    await utimes(repo.path("u.txt"), 2_000, 2_000);
    expect(await fingerprint(repo.root, { env })).not.toBe(second);
  });

  it("does not change when git stages a file unchanged on disk", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    await writeFile(repo.path("a.txt"), "changed");
    await repo.write("new.txt", "n");
    const before = await fingerprint(repo.root, { env });
    await repo.git("add", "-A");
    expect(await fingerprint(repo.root, { env })).toBe(before);
  });

  it("digests the files on disk alike whatever state or form git's index is in", async () => {
    await using repo = await createFixtureRepo({
      files: { "a.txt": "a", "d/b.txt": "bb", "ü/ñ.txt": "n" },
    });
    await writeFile(Buffer.from(`${repo.root}/raw-\xff.bin`, "latin1"), "tracked");
    await repo.commit("raw name");
    await writeFile(Buffer.from(`${repo.root}/new-\xfe.txt`, "latin1"), "untracked");
    // Old enough that git's index holds them as they are (not "racily clean").
    for (const path of ["a.txt", "d/b.txt"])
      await utimes(repo.path(path), 2_000_000.5, 2_000_000.5);
    await repo.git("update-index", "--refresh");
    // Without git on the PATH the folder is walked and every file stat'ed.
    const walked = () => fingerprint(repo.root, { env: { PATH: "/nonexistent" } });
    const first = await fingerprint(repo.root, { env });
    expect(first).toBe(await walked());
    await utimes(repo.path("a.txt"), 3_000, 3_000);
    // Before 1970; and a touch within the second git's index was written in.
    await promisify(execFile)("touch", ["-t", "196001010000.30", repo.path("d/b.txt")]);
    await utimes(repo.path("ü/ñ.txt"), new Date(), new Date());
    const touched = await fingerprint(repo.root, { env });
    expect(touched).not.toBe(first);
    expect(touched).toBe(await walked());
    for (const step of [
      ["update-index", "--refresh"],
      ["update-index", "--split-index"],
      ["update-index", "--no-split-index", "--index-version", "4"],
    ]) {
      await repo.git(...step);
      expect(await fingerprint(repo.root, { env })).toBe(touched);
    }
    await writeFile(Buffer.from(`${repo.root}/raw-\xff.bin`, "latin1"), "changed");
    const changed = await fingerprint(repo.root, { env });
    expect(changed).not.toBe(touched);
    expect(changed).toBe(await walked());
    // Some twenty git and fingerprint runs: seconds on a machine busy with other work.
  }, 30_000);

  it("sees a same-second touch that git's index cannot tell apart, also after the index is rewritten", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a", "b.txt": "b" } });
    // Git compares modification times to the second only (and here not the ctime either),
    // so an index entry may keep the nanoseconds of an earlier version of its file.
    await repo.git("config", "core.trustctime", "false");
    await utimes(repo.path("a.txt"), 1_000.25, 1_000.25);
    await repo.git("update-index", "--refresh");
    const walked = () => fingerprint(repo.root, { env: { PATH: "/nonexistent" } });
    const before = await fingerprint(repo.root, { env });
    expect(before).toBe(await walked());
    await utimes(repo.path("a.txt"), 1_000.75, 1_000.75);
    for (const step of [
      ["update-index", "--refresh"],
      ["update-index", "--split-index"],
    ]) {
      await repo.git(...step);
      const now = await fingerprint(repo.root, { env });
      expect(now).not.toBe(before);
      expect(now).toBe(await walked());
    }
  }, 30_000);

  it("leaves out ignored files, .git and .z-engine/", async () => {
    await using repo = await createFixtureRepo({
      files: { ".gitignore": "build/\n*.log\n", "a.txt": "a" },
    });
    const before = await fingerprint(repo.root, { env });
    await repo.write("build/out.js", "x");
    await repo.write("debug.log", "x");
    await repo.write(".z-engine/checks/record.json", "{}");
    await repo.write(".git/anything", "x");
    expect(await fingerprint(repo.root, { env })).toBe(before);
  });

  it("fingerprints a subfolder of a repository on its own", async () => {
    await using repo = await createFixtureRepo({ files: { "pkg/a.txt": "a", "other.txt": "o" } });
    const before = await fingerprint(repo.path("pkg"), { env });
    await writeFile(repo.path("other.txt"), "changed");
    expect(await fingerprint(repo.path("pkg"), { env })).toBe(before);
    await writeFile(repo.path("pkg/a.txt"), "changed");
    expect(await fingerprint(repo.path("pkg"), { env })).not.toBe(before);
  });

  it("walks a folder that is not a repository, skipping .git and .z-engine", async () => {
    await using repo = await createFixtureRepo({
      git: false,
      files: { "a.txt": "a", "d/e/f.txt": "f" },
    });
    const before = await fingerprint(repo.root, { env });
    await repo.write(".z-engine/x", "x");
    await repo.write("d/.git/y", "y");
    expect(await fingerprint(repo.root, { env })).toBe(before);
    await repo.write("d/e/g.txt", "g");
    expect(await fingerprint(repo.root, { env })).not.toBe(before);
  });

  it("is not redirected by an inherited GIT_DIR", async () => {
    await using repo = await createFixtureRepo({ files: { "a.txt": "a" } });
    const plain = await fingerprint(repo.root, { env });
    const hostile = await fingerprint(repo.root, {
      env: { ...env, GIT_DIR: "/nonexistent", GIT_WORK_TREE: "/" },
    });
    expect(hostile).toBe(plain);
  });

  it("rejects a missing or non-folder root with fingerprintFailed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "zeng-fp-"));
    try {
      await mkdir(join(dir, "x"));
      await writeFile(join(dir, "file"), "f");
      for (const root of [join(dir, "missing"), join(dir, "file")]) {
        const error = await fingerprint(root, { env }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(HostError);
        expect((error as HostError).code).toBe("fingerprintFailed");
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
