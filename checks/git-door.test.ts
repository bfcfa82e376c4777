import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allowed, gitDoorBreaches, gitDoorBreachesIn } from "./git-door.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("the git door", () => {
  it("is the only way this repository's packages and apps start git", () => {
    const found = gitDoorBreaches(repoRoot).map((b) => `${b.file}:${b.line} ${b.text}`);
    expect(found).toEqual([]);
  });
});

describe("gitDoorBreachesIn", () => {
  const lines = (text: string) => gitDoorBreachesIn("m.ts", text).map((b) => `${b.line} ${b.text}`);

  it("finds git started by a process starter, by name or promisified", () => {
    const text = [
      `import { execFile, spawn } from "node:child_process";`,
      `import * as cp from "node:child_process";`,
      `const run = promisify(execFile);`,
      `spawn("git", ["status"]);`,
      `cp.execFileSync("/usr/bin/git", ["add", "-A"]);`,
      `await run("git", args);`,
      `wrapper("git", ["log"]);`,
    ].join("\n");
    expect(lines(text)).toEqual([
      '4 starts git: spawn("git", ["status"])',
      '5 starts git: cp.execFileSync("/usr/bin/git", ["add", "-A"])',
      '6 starts git: run("git", args)',
      '7 starts git: wrapper("git", ["log"])',
    ]);
  });

  it("finds command lines, sh -c scripts and shell commands that call git", () => {
    const text = [
      `const SCRIPT = \`set -e\ngit add -A\`;`,
      `execSync("cd x && git status");`,
      `spawn("sh", ["-c", SCRIPT]);`,
      `spawn("/bin/bash", ["-c", \`echo \${x}; git commit -m y\`]);`,
      `shell.run({ command: "git diff", cwd });`,
    ].join("\n");
    expect(lines(text)).toEqual([
      '3 runs a shell command line that calls git: execSync("cd x && git status")',
      '4 runs a shell script that calls git: spawn("sh", ["-c", SCRIPT])',
      expect.stringMatching(/^5 runs a shell script that calls git: spawn\("\/bin\/bash"/),
      '6 hands a shell command that calls git to a runner: command: "git diff"',
    ]);
  });

  it("finds a git command line built to be started elsewhere", () => {
    const text = [
      `const git = safeGitCommand(["ls-files"], { env });`,
      `execFile(git.program, git.args, { cwd: root });`,
    ].join("\n");
    expect(lines(text)).toEqual([
      '1 builds a git command line to start outside the door: safeGitCommand(["ls-files"], { env })',
    ]);
  });

  it("finds simple-git however it is imported", () => {
    const text = [
      `import simpleGit from "simple-git";`,
      `const sg = await import("simple-git");`,
      `const r = require("simple-git");`,
    ].join("\n");
    expect(lines(text).map((l) => l.split(":")[0])).toEqual([
      "1 imports simple-git",
      "2 imports simple-git",
      "3 imports simple-git",
    ]);
  });

  it("leaves the door's callers, other programs and words that only look like git", () => {
    const text = [
      `await runGit(["status"], { repo });`,
      `await runGitScript("list", 'git "$@" ls-files', { repo });`,
      `spawn("rg", ["git"]);`,
      `if (argv[0] === "git") return;`,
      `const path = join(home, ".config", "git");`,
      `spawn("sh", ["-c", "echo digit"]);`,
    ].join("\n");
    expect(lines(text)).toEqual([]);
  });

  it("allows the door, tests, test support and benches by their listed patterns only", () => {
    expect(allowed("packages/host/src/git.ts")).toBe(true);
    expect(allowed("packages/engine/test/scenarios/agents.test.ts")).toBe(true);
    expect(allowed("packages/host/src/test-support/hostile-repo.ts")).toBe(true);
    expect(allowed("packages/host/bench/worktree.ts")).toBe(true);
    expect(allowed("packages/host/src/git-list.ts")).toBe(false);
    expect(allowed("packages/engine/src/repo-map/project-files.ts")).toBe(false);
    expect(allowed("apps/cli/src/main.ts")).toBe(false);
  });

  it("finds the git calls this repository made past the door before issue 38", () => {
    // The repo map's listing and the terminal UI's `@` completion, as they were.
    const repoMap = [
      `const git = safeGitCommand(["ls-files", "-z", "--cached"], { env, userConfig: true });`,
      "execFile(git.program, git.args, { cwd: root, env: git.env }, done);",
    ].join("\n");
    const completion = `execFile("git", ["ls-files", "--cached", "--others"], { cwd: root }, done);`;
    expect(lines(repoMap)).toHaveLength(1);
    expect(lines(completion)).toHaveLength(1);
  });
});
