import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import {
  EventRecorder,
  type FixtureRepo,
  ScriptedModel,
  createFixtureRepo,
  fixtureGitEnv,
  reply,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";

// Issue 16, item 2: the engine's own git calls must never start a program that the project's
// git configuration (or an inherited GIT_* variable) names, before or after trust.

const exec = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Planted {
  readonly repo: FixtureRepo;
  readonly scratch: string;
  readonly bareProject: string;
  readonly env: Record<string, string>;
  ran(): Promise<string[]>;
  makeIndexRacy(): Promise<void>;
}

/** A cloned-looking project whose git setup names `evil.sh <name>` (which creates `ran-<name>`). */
async function plant(): Promise<Planted> {
  const scratch = await realpath(await mkdtemp(join(tmpdir(), "zeng-planted-")));
  const evil = join(scratch, "evil.sh");
  await writeFile(
    evil,
    `#!/bin/sh\ntouch "${scratch}/ran-$1"\ncase "$1" in *clean|*smudge) exec cat ;; esac\nexit 1\n`,
  );
  await chmod(evil, 0o755);
  const run = (name: string) => `${evil} ${name}`;
  const repo = await createFixtureRepo({
    files: {
      "a.txt": "a\n",
      "pkg/b.txt": "b\n",
      ".gitattributes": "* filter=evil\npkg/* filter=proc\n",
    },
  });
  await writeFile(join(scratch, "included.config"), `[filter "evil"]\n\tclean = ${run("clean")}\n`);
  const hooks = join(scratch, "hooks");
  await mkdir(hooks);
  for (const hook of ["post-checkout", "post-index-change", "reference-transaction"]) {
    await writeFile(join(hooks, hook), `#!/bin/sh\n${run(`hook-${hook}`)} </dev/null\n`);
    await chmod(join(hooks, hook), 0o755);
  }
  for (const [key, value] of [
    ["include.path", join(scratch, "included.config")],
    ["filter.evil.smudge", run("smudge")],
    ["filter.proc.process", run("process")],
    ["core.fsmonitor", run("fsmonitor")],
    ["core.hooksPath", hooks],
    ["core.pager", run("pager")],
  ]) {
    await repo.git("config", key!, value!);
  }
  const bareProject = repo.path("vendor/evil");
  await exec("git", ["init", "-q", "--bare", bareProject], { env: fixtureGitEnv() });
  for (const [key, value] of [
    ["core.bare", "false"],
    ["core.worktree", ".."],
    ["core.fsmonitor", run("bare-fsmonitor")],
  ]) {
    await exec("git", ["--git-dir", bareProject, "config", key!, value!], { env: fixtureGitEnv() });
  }
  return {
    repo,
    scratch,
    bareProject,
    env: {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: run("env-config"),
      GIT_EXTERNAL_DIFF: run("env-external"),
    },
    ran: async () => (await readdir(scratch)).filter((name) => name.startsWith("ran-")).sort(),
    makeIndexRacy: () => utimes(repo.path(".git/index"), 1_000, 1_000),
  };
}

async function openEngine(planted: Planted) {
  const home = await mkdtemp(join(tmpdir(), "zeng-home-"));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_CONFIG_HOME: join(home, "config"),
    ZENGINE_HOME: join(home, "data"),
    ...planted.env,
  };
  const paths = resolvePaths(env);
  await mkdir(paths.configDir, { recursive: true });
  const model = new ScriptedModel([]);
  const fast = new ScriptedModel([{ events: [{ type: "textDelta", text: "title" }] }]);
  const recorder = new EventRecorder();
  const engine = await createEngine({
    paths,
    onEvent: recorder.sink,
    env,
    clientFactory: ({ role }) => (role === "fast" ? fast : model),
    catalogSource: "off",
    homeDir: home,
  });
  cleanups.push(async () => {
    await engine.shutdown();
    await rm(home, { recursive: true, force: true });
  });
  return { engine, model, recorder };
}

const layouts = [
  { name: "the repository's top", project: (p: Planted) => p.repo.root },
  { name: "a subfolder", project: (p: Planted) => p.repo.path("pkg") },
  { name: "a planted bare repository", project: (p: Planted) => p.bareProject },
];

describe("the engine's git calls in an untrusted project, in acceptEdits mode", () => {
  for (const layout of layouts) {
    it(`start no planted program at session open, turn start, checkpoint, fingerprint and rewind (project: ${layout.name})`, async () => {
      const planted = await plant();
      cleanups.push(async () => {
        await planted.repo.dispose();
        await rm(planted.scratch, { recursive: true, force: true });
      });
      const project = layout.project(planted);
      await writeFile(join(project, "notes.txt"), "notes\n");
      await planted.makeIndexRacy();
      const { engine, model, recorder } = await openEngine(planted);
      const session = await engine.createSession(project, { mode: "acceptEdits" });
      expect(await planted.ran()).toEqual([]);
      // A read, then an edit (allowed in acceptEdits mode): the checkpoint is taken right
      // before the edit runs.
      model.push(
        reply.toolCall("Read", { file_path: join(project, "notes.txt") }),
        reply.toolCall("Write", { file_path: join(project, "notes.txt"), content: "written\n" }),
        reply.text("Wrote it."),
      );
      expect((await session.run("read the notes")).outcome).toBe("completed");
      expect(recorder.ofType("checkpointCreated")).toHaveLength(1);
      await writeFile(join(project, "notes.txt"), "changed\n");
      await planted.makeIndexRacy();
      const started = recorder.ofType("turnStarted")[0];
      if (!started) throw new Error("no turn");
      session.send({ type: "rewind", messageId: started.userMessageId, restore: "code" });
      await session.idle();
      expect(recorder.ofType("rewound")[0]?.restoredPaths).toEqual(["notes.txt"]);
      expect(await planted.ran()).toEqual([]);
    }, 60_000);
  }

  it("while the same plants run under plain git (they are live)", async () => {
    const planted = await plant();
    cleanups.push(async () => {
      await planted.repo.dispose();
      await rm(planted.scratch, { recursive: true, force: true });
    });
    await planted.makeIndexRacy();
    const git = (cwd: string, env = fixtureGitEnv()) =>
      exec("git", ["status"], { cwd, env }).catch(() => {});
    await git(planted.repo.root);
    await git(planted.bareProject);
    await git(planted.repo.root, { ...fixtureGitEnv(), ...planted.env });
    expect(await planted.ran()).toEqual(
      expect.arrayContaining([
        "ran-bare-fsmonitor",
        "ran-clean",
        "ran-env-config",
        "ran-fsmonitor",
        "ran-process",
      ]),
    );
  }, 60_000);
});
