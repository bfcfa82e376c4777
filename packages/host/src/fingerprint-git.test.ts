import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scratchHome } from "./test-support/scratch-home.js";
import { type GitFiles, localGitFiles, spawnGitFiles } from "./fingerprint-git.js";

const exec = promisify(execFile);

let home: string;
let project: string;
let env: Record<string, string>;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ home, project, env, dispose } = await scratchHome("zeng-fingerprint-git-"));
  await mkdir(join(project, "src", "build"), { recursive: true });
});
afterEach(() => dispose());

const git = (...args: string[]) =>
  exec("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: project,
    env: { ...env, GIT_CONFIG_NOSYSTEM: "1" },
  });

const sorted = (files: GitFiles | null | undefined) =>
  files ? { tracked: files.tracked, untracked: [...files.untracked].sort() } : files;

/** The in-process listing, which must be there and equal git's. */
async function expectSameFiles(label: string) {
  const ours = localGitFiles(project, env);
  expect(ours, `${label}: left to git`).not.toBeUndefined();
  expect(sorted(ours), label).toEqual(sorted(await spawnGitFiles(project, env)));
}

describe("localGitFiles", { timeout: 30_000 }, () => {
  it("lists the tracked and the untracked files as git does", async () => {
    for (const [path, text] of Object.entries({
      "a.txt": "a",
      ".gitignore": "build/\n*.log\n",
      "src/b.ts": "b",
      "src/build/out.js": "o",
      "src/x.log": "x",
      "secret.env": "s",
      "global.tmp": "g",
      "default.bak": "d",
    })) {
      await writeFile(join(project, path), text);
    }
    expect(localGitFiles(project, env)).toBeNull(); // In no repository, as git says.
    await git("init", "-q");
    await expectSameFiles("new repository");
    await git("add", "a.txt", ".gitignore", "src/b.ts");
    // A tracked file that the ignores cover stays tracked.
    await git("add", "-f", "src/x.log");
    await git("commit", "-q", "-m", "one");
    await expectSameFiles("committed");
    await writeFile(join(project, ".git", "info", "exclude"), "secret.env\n");
    await writeFile(join(home, ".config", "git", "ignore"), "*.bak\n");
    await expectSameFiles("info/exclude and the default excludes file");
    // The user's config is not read by the fingerprint's git: its excludes file is ignored.
    await writeFile(join(home, "mine"), "*.tmp\n");
    await writeFile(join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/mine\n");
    await expectSameFiles("user excludes file");
    await git("config", "core.excludesFile", join(home, "mine"));
    await expectSameFiles("repository excludes file");
    await rm(join(project, "a.txt"));
    await git("update-index", "--index-version", "4");
    await expectSameFiles("deleted tracked file, index version 4");
  });

  it("leaves a split index and a repository it cannot read plainly to git", async () => {
    await writeFile(join(project, "a.txt"), "a");
    await git("init", "-q");
    await git("add", "a.txt");
    await git("update-index", "--split-index");
    expect(localGitFiles(project, env)).toBeUndefined();
    await git("update-index", "--no-split-index");
    await expectSameFiles("split index undone");
    // A corrupt index (its checksum no longer matches) is refused, as git refuses it.
    const index = join(project, ".git", "index");
    const bytes = await readFile(index);
    const last = bytes.length - 1;
    bytes.writeUInt8(bytes.readUInt8(last) ^ 0xff, last);
    await writeFile(index, bytes);
    expect(localGitFiles(project, env)).toBeUndefined();
  });
});
