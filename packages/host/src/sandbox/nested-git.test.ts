import {
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createShell } from "../process/local-shell.js";
import type { Shell } from "../shell.js";
import { BubblewrapSandbox } from "./bubblewrap.js";
import { NestedGitGuard, NestedGitScanner } from "./nested-git.js";
import { buildSandboxProfile } from "./profile.js";

// Issue 38, item 10: every `.git` under a writable root stays read-only in the sandbox, not
// only `<root>/.git`, also one a command creates (from the next command on, with a warning).

const baseEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const backend = new BubblewrapSandbox();
let scratch: string;
let repo: FixtureRepo;
let inside: Shell;
let outside: Shell;
let warnings: string[];

afterAll(() => backend.dispose());
beforeEach(async () => {
  scratch = await realpath(await mkdtemp(join(tmpdir(), "zeng-nested-git-")));
  await mkdir(join(scratch, "tmp"));
  await mkdir(join(scratch, "home"));
  repo = await createFixtureRepo({
    files: {
      "vendor/lib/.git/HEAD": "ref: refs/heads/main\n",
      "vendor/lib/.git/config": "[core]\n\tbare = false\n",
      "vendor/lib/.git/hooks/README": "hooks\n",
      "vendor/lib/a.txt": "a\n",
      "deep/er/still/mod/.git": "gitdir: ../../../../.git/modules/mod\n",
      "src/b.txt": "b\n",
    },
  });
  const profile = buildSandboxProfile({
    root: repo.root,
    homeDir: join(scratch, "home"),
    tmpDir: join(scratch, "tmp"),
  });
  warnings = [];
  inside = createShell({
    baseEnv,
    sandbox: { backend, profile },
    onSandboxWarning: (m) => warnings.push(m),
  });
  outside = createShell({ baseEnv });
});
afterEach(async () => {
  await repo.dispose();
  await rm(scratch, { recursive: true, force: true });
});

const run = (shell: Shell, command: string) =>
  shell.run({ command, cwd: repo.root, timeoutMs: 20_000 });

/** Ways to plant something git runs later in a nested repository. */
const ESCAPES: Record<string, string> = {
  "a hook in a vendored repository":
    "printf '#!/bin/sh\\ntouch /tmp/x\\n' > vendor/lib/.git/hooks/pre-commit",
  "core.fsmonitor in its config":
    "printf '[core]\\n\\tfsmonitor = touch /tmp/x\\n' >> vendor/lib/.git/config",
  "replacing its .git folder": "mv vendor/lib/.git vendor/lib/.git-old && mkdir vendor/lib/.git",
  "removing it": "rm -rf vendor/lib/.git",
  "repointing a submodule's .git file": "echo 'gitdir: /tmp/planted' > deep/er/still/mod/.git",
};

describe("nested .git folders in the sandbox", { timeout: 60_000 }, () => {
  for (const [name, command] of Object.entries(ESCAPES)) {
    it(`refuses ${name} inside, while the same works outside`, async () => {
      const refused = await run(inside, command);
      expect(refused.exitCode, refused.output).not.toBe(0);
      expect(await readFile(repo.path("vendor/lib/.git/config"), "utf8")).toBe(
        "[core]\n\tbare = false\n",
      );
      expect(await readFile(repo.path("deep/er/still/mod/.git"), "utf8")).toContain("modules");
      const done = await run(outside, command);
      expect(done.exitCode, done.output).toBe(0);
    });
  }

  it("warns about a .git a command creates, and keeps it read-only from the next command on", async () => {
    const made = await run(
      inside,
      "mkdir -p fresh/repo/.git/hooks && echo planted > fresh/repo/.git/hooks/pre-commit && echo ok",
    );
    expect(made.exitCode).toBe(0);
    const git = repo.path("fresh/repo/.git");
    expect(made.output).toContain(`the command created ${git}`);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(git);
    const again = await run(inside, "echo more >> fresh/repo/.git/hooks/pre-commit");
    expect(again.exitCode).not.toBe(0);
    expect(await readFile(join(git, "hooks/pre-commit"), "utf8")).toBe("planted\n");
    // Nothing new: no second warning.
    await run(inside, "true");
    expect(warnings).toHaveLength(1);
  });

  it("still lets commands write the rest of the nested repository's files", async () => {
    const result = await run(inside, "echo changed > vendor/lib/a.txt && cat vendor/lib/a.txt");
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe("changed\n");
  });
});

describe("NestedGitScanner", () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), "zeng-scan-")));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("finds folders and files named .git at any depth, without entering them or following links", async () => {
    await mkdir(join(root, "a/.git/modules/x/.git"), { recursive: true });
    await mkdir(join(root, "b/c"), { recursive: true });
    await writeFile(join(root, "b/c/.git"), "gitdir: ../../a/.git\n");
    await mkdir(join(root, "elsewhere/repo/.git"), { recursive: true });
    await symlink(join(root, "elsewhere"), join(root, "link"));
    const scanner = new NestedGitScanner();
    expect(scanner.scan([join(root, "a"), join(root, "b"), join(root, "link")])).toEqual([
      join(root, "a/.git"),
      join(root, "b/c/.git"),
    ]);
  });

  it("sees a .git made in a folder it listed before, even with the folder's times set back", async () => {
    await mkdir(join(root, "x/y"), { recursive: true });
    const guard = new NestedGitGuard([root]);
    expect(guard.protect()).toEqual([]);
    const old = new Date(2000, 0, 1);
    await mkdir(join(root, "x/y/.git"));
    await utimes(join(root, "x/y"), old, old);
    expect(guard.created()).toEqual([join(root, "x/y/.git")]);
    expect(guard.created()).toEqual([]);
    expect(guard.protect()).toEqual([join(root, "x/y/.git")]);
  });

  it("refuses past its folder limit", async () => {
    for (const name of ["a", "b", "c"]) await mkdir(join(root, name));
    expect(() => new NestedGitScanner(3).scan([root])).toThrow(/more than 3 folders/);
  });
});
