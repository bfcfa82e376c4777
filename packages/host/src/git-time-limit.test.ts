import { execFile } from "node:child_process";
import { constants, openSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCheckpointStore } from "./checkpoint/store.js";
import { fingerprint } from "./fingerprint.js";
import { GitTimeLimit, runGit, runGitScript } from "./git.js";

// Git blocks for ever opening a FIFO where it reads an ignore file (`open` waits for a
// writer). A project can hold one (a test suite's, or one a command made), and the first tool
// that may write waits for the turn's snapshot and fingerprint: each git call has a limit.

const exec = promisify(execFile);
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() };

let project: string;
let checkpoints: string;
beforeEach(async () => {
  project = await mkdtemp(join(tmpdir(), "zeng-time-limit-"));
  checkpoints = await mkdtemp(join(tmpdir(), "zeng-time-limit-cp-"));
  await exec("git", ["init", "-q"], { cwd: project });
  await writeFile(join(project, "a.txt"), "a\n");
  await exec("mkfifo", [join(project, ".gitignore")]);
});
afterEach(async () => {
  await rm(project, { recursive: true, force: true });
  await rm(checkpoints, { recursive: true, force: true });
});

/** True while some process has the FIFO open for reading (a writer's open then succeeds). */
function hasReader(fifo: string): boolean {
  try {
    openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    return true;
  } catch {
    return false; // ENXIO: nobody reads it.
  }
}

/** More files than a listing in process takes: git lists them. */
async function manyFiles(): Promise<void> {
  await mkdir(join(project, "many"));
  for (let i = 0; i < 1_100; i++) await writeFile(join(project, "many", `f${i}`), "");
}

describe("a time limit on engine git calls", { timeout: 30_000 }, () => {
  it("kills git, and what its script started, when it blocks on a FIFO", async () => {
    const started = Date.now();
    const listing = runGitScript("list", 'git "$@" ls-files -o --exclude-standard', {
      repo: { kind: "user", folder: project },
      env,
      timeoutMs: 400,
    });
    await expect(listing).rejects.toBeInstanceOf(GitTimeLimit);
    await expect(listing).rejects.toThrow(/list did not finish within 0\.4 s/);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The git the script started is gone too: nothing holds the FIFO open any more.
    expect(hasReader(join(project, ".gitignore"))).toBe(false);
  });

  it("kills git when the call's signal aborts, and starts none on an aborted signal", async () => {
    const stop = new AbortController();
    const listing = runGitScript("list", 'git "$@" ls-files -o --exclude-standard', {
      repo: { kind: "user", folder: project },
      env,
      signal: stop.signal,
    });
    const fifo = join(project, ".gitignore");
    for (let i = 0; i < 100 && !hasReader(fifo); i++) await new Promise((r) => setTimeout(r, 50));
    stop.abort(new Error("closing"));
    await expect(listing).rejects.toThrow(/list stopped/);
    expect(hasReader(fifo)).toBe(false);
    const again = runGit(["ls-files"], {
      repo: { kind: "user", folder: project },
      env,
      signal: stop.signal,
    });
    await expect(again).rejects.toThrow(/stopped/);
  });

  it("fails a snapshot that git lists, and takes a small project's without git", async () => {
    const small = createCheckpointStore({
      checkpointsDir: join(checkpoints, "small"),
      projectRoot: project,
      env,
      gitTimeLimitMs: 400,
    });
    const snap = await small.snapshot("small");
    if ("disabled" in snap) throw new Error(snap.disabled);
    // The FIFO is not a file a snapshot stores; a.txt is.
    expect(snap.files).toBe(1);
    await manyFiles();
    const large = createCheckpointStore({
      checkpointsDir: join(checkpoints, "large"),
      projectRoot: project,
      env,
      gitTimeLimitMs: 400,
    });
    await expect(large.snapshot("large")).rejects.toThrow(/did not finish within 0\.4 s/);
  });

  it("fails a fingerprint that git lists instead of walking, and takes a small one without git", async () => {
    await expect(fingerprint(project, { env, gitTimeLimitMs: 400 })).resolves.toMatch(
      /^[0-9a-f]{16}$/,
    );
    await manyFiles();
    await expect(fingerprint(project, { env, gitTimeLimitMs: 400 })).rejects.toMatchObject({
      code: "fingerprintFailed",
    });
  });
});

describe("a repository whose fixed git files are FIFOs", { timeout: 30_000 }, () => {
  // Git opens HEAD, the index, config and its neighbours on nearly every call: a FIFO there
  // would make every call wait for its time limit. The door refuses such a repository at once.
  it.each([["HEAD"], ["index"], ["config"], ["packed-refs"], [join("info", "exclude")]])(
    "refuses at once when %s is a FIFO",
    async (name) => {
      const git = join(project, ".git");
      await rm(join(git, name), { force: true });
      await mkdir(join(git, "info"), { recursive: true });
      await exec("mkfifo", [join(git, name)]);
      const started = Date.now();
      const call = runGit(["ls-files"], { repo: { kind: "user", folder: project }, env });
      await expect(call).rejects.toMatchObject({ code: "gitRefused" });
      expect(Date.now() - started).toBeLessThan(2_000);
    },
  );

  it("refuses at once when a .git file names a folder whose HEAD is a FIFO", async () => {
    await rename(join(project, ".git"), join(project, "real-git"));
    await mkdir(join(project, "planted"));
    await exec("mkfifo", [join(project, "planted", "HEAD")]);
    await writeFile(join(project, ".git"), `gitdir: ${join(project, "planted")}\n`);
    const started = Date.now();
    const call = runGitScript("list", 'git "$@" ls-files -z --cached', {
      repo: { kind: "user", folder: join(project) },
      env,
    });
    await expect(call).rejects.toMatchObject({ code: "gitRefused" });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
