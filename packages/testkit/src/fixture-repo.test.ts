import { existsSync, lstatSync, readlinkSync, statSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createFixtureRepo, type FixtureRepo } from "./fixture-repo.js";

describe("FixtureRepo", () => {
  let repo: FixtureRepo | undefined;
  afterEach(async () => {
    await repo?.dispose();
    repo = undefined;
  });

  it("writes the file map, commits it and is removed on dispose", async () => {
    repo = await createFixtureRepo({
      files: {
        "package.json": '{"name":"demo"}',
        "src/auth/token.ts": "export const ttl = 1;\n",
        "bin/run.sh": { content: "#!/bin/sh\necho hi\n", mode: 0o755 },
        "logo.bin": new Uint8Array([0, 1, 2, 255]),
        "link.ts": { symlink: "src/auth/token.ts" },
      },
    });
    expect(await repo.read("src/auth/token.ts")).toBe("export const ttl = 1;\n");
    expect(statSync(repo.path("bin/run.sh")).mode & 0o111).not.toBe(0);
    expect(lstatSync(repo.path("link.ts")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(repo.path("link.ts"))).toBe("src/auth/token.ts");
    expect((await repo.git("status", "--porcelain")).trim()).toBe("");
    expect((await repo.git("ls-files")).split("\n").filter(Boolean).sort()).toEqual([
      "bin/run.sh",
      "link.ts",
      "logo.bin",
      "package.json",
      "src/auth/token.ts",
    ]);
    const root = repo.root;
    await repo.dispose();
    await repo.dispose();
    expect(existsSync(root)).toBe(false);
  });

  it("commits later changes and reports them in git", async () => {
    repo = await createFixtureRepo({ files: { "a.txt": "1" } });
    await repo.write("a.txt", "2");
    expect((await repo.git("status", "--porcelain")).trim()).toBe("M a.txt");
    const head = await repo.commit("change");
    expect(head).toMatch(/^[0-9a-f]{40}$/);
    expect((await repo.git("log", "--format=%s")).trim().split("\n")).toEqual([
      "change",
      "initial",
    ]);
  });

  it("can be a plain folder, or a repository without a first commit", async () => {
    repo = await createFixtureRepo({ files: { "a.txt": "1" }, git: false });
    expect(existsSync(repo.path(".git"))).toBe(false);
    await repo.dispose();
    repo = await createFixtureRepo({ files: { "a.txt": "1" }, commit: false });
    expect((await repo.git("status", "--porcelain")).trim()).toBe("?? a.txt");
  });

  it("rejects when git fails", async () => {
    repo = await createFixtureRepo();
    await expect(repo.git("no-such-command")).rejects.toThrow(/no-such-command/);
  });
});
