import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scratchHome } from "../test-support/scratch-home.js";
import { listFirstLocally, readUserRepoAndList } from "./first-listing.js";
import { ShadowRepo } from "./shadow-repo.js";

const exec = promisify(execFile);

let scratch: string;
let home: string;
let project: string;
let env: Record<string, string>;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ scratch, home, project, env, dispose } = await scratchHome("zeng-first-listing-"));
  await mkdir(join(project, "src", "logs"), { recursive: true });
  for (const [path, text] of Object.entries({
    "README.md": "# x\n",
    ".gitignore": "*.log\n!keep.log\n",
    "src/a.ts": "a\n",
    "src/keep.log": "k\n",
    "src/drop.log": "d\n",
    "src/logs/x.txt": "x\n",
    "secret.env": "K=1\n",
    "global.tmp": "g\n",
    "default.bak": "b\n",
  })) {
    await writeFile(join(project, path), text);
  }
});
afterEach(() => dispose());

const git = (args: string[]) =>
  exec("git", args, { cwd: project, env: { ...env, GIT_CONFIG_NOSYSTEM: "1" } });

/**
 * The in-process first listing and the script's, each on a new shadow repository of the
 * project: the same repository reading, the same listing, the same excludes written.
 */
async function expectSameListing(label: string) {
  const local = new ShadowRepo(join(scratch, `local-${label}`), project, env);
  const script = new ShadowRepo(join(scratch, `script-${label}`), project, env);
  await Promise.all([local.init(), script.init()]);
  const ours = await listFirstLocally(local, env);
  const theirs = await readUserRepoAndList(script, env);
  expect(ours, `${label}: left to git`).not.toBeNull();
  expect(ours?.repo, label).toEqual(theirs.repo);
  expect(ours?.listing?.toString("utf8"), label).toBe(theirs.listing?.toString("utf8"));
  const exclude = (shadow: ShadowRepo) =>
    readFileSync(join(shadow.gitDir, "info", "exclude"), "utf8");
  expect(exclude(local), label).toBe(exclude(script));
  return ours;
}

describe("listFirstLocally", { timeout: 30_000 }, () => {
  it("lists what the script lists, in and out of a repository, with each excludes file", async () => {
    // No repository: only .gitignore files and git's default excludes file apply.
    await writeFile(join(home, ".config", "git", "ignore"), "*.bak\n");
    await expectSameListing("plain folder");
    await git(["init", "-q"]);
    await expectSameListing("repository");
    await writeFile(join(project, ".git", "info", "exclude"), "secret.env\n");
    await expectSameListing("info/exclude");
    // A configured excludes file replaces the default one.
    await writeFile(join(home, "global-ignore"), "*.tmp\n");
    await writeFile(join(home, ".gitconfig"), "[core]\n\texcludesFile = ~/global-ignore\n");
    const listed = await expectSameListing("user excludes file");
    expect(listed?.listing?.toString("utf8")).not.toContain("global.tmp");
    expect(listed?.listing?.toString("utf8")).toContain("default.bak");
    // One that is missing or no regular file is dropped: the default one applies again.
    await git(["config", "core.excludesFile", join(home, "missing")]);
    await expectSameListing("missing excludes file");
    await rm(join(home, ".gitconfig"));
    await git(["config", "--unset", "core.excludesFile"]);
    await exec("mkfifo", [join(home, "fifo")]);
    await git(["config", "core.excludesFile", join(home, "fifo")]);
    await expectSameListing("excludes FIFO");
  });

  it("leaves a shadow repository that has an index, and a project too large to walk, to git", async () => {
    await git(["init", "-q"]);
    const shadow = new ShadowRepo(join(scratch, "cp"), project, env);
    await shadow.init();
    await writeFile(shadow.indexFile, "");
    expect(await listFirstLocally(shadow, env)).toBeNull();
    await rm(shadow.indexFile);
    await mkdir(join(project, "many"));
    for (let i = 0; i < 600; i++) await writeFile(join(project, "many", `f${i}`), "");
    const large = await listFirstLocally(shadow, env);
    // The repository was read (and the excludes written), the listing is git's to take.
    expect(large?.repo.commonDir).toBe(join(project, ".git"));
    expect(large?.listing).toBeNull();
  });
});
