import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, realpath, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type FixtureRepo, createFixtureRepo, fixtureGitEnv } from "@z-engine/testkit";

const exec = promisify(execFile);

/** Hook names git runs for the commands a client might send it. */
const HOOKS = [
  "pre-commit",
  "post-commit",
  "post-checkout",
  "post-index-change",
  "reference-transaction",
  "pre-auto-gc",
  "fsmonitor-watchman",
];

/**
 * A repository whose config, attributes, hooks and surroundings name an attacker's program
 * wherever git looks for one. Each planted program, when run, creates `ran-<name>` in
 * `markers`; `ran()` lists them.
 */
export interface HostileRepo extends AsyncDisposable {
  readonly repo: FixtureRepo;
  /** A folder of the repository that is itself a bare repository (`core.worktree=..`). */
  readonly bareProject: string;
  readonly markers: string;
  /** The environment an attacker would leave behind: GIT_* variables, a user config. */
  readonly env: Record<string, string>;
  /** The `ran-*` markers created so far, sorted. */
  ran(): Promise<string[]>;
  /** Sets the index's mtime far back, so every entry is "racily clean" to git. */
  makeIndexRacy(): Promise<void>;
  /** Runs plain git (no neutralising) in `cwd` with `env`. Never rejects. */
  plainGit(
    cwd: string,
    args: string[],
    options?: { env?: NodeJS.ProcessEnv; input?: string },
  ): Promise<void>;
}

/** Creates the planted repository; see {@link HostileRepo}. */
export async function createHostileRepo(): Promise<HostileRepo> {
  const markers = await realpath(await mkdtemp(join(tmpdir(), "zeng-hostile-")));
  const { run, askpass } = await plantPrograms(markers);
  const repo = await createFixtureRepo({
    files: {
      "a.txt": "a\n",
      "pkg/b.txt": "b\n",
      ".gitattributes": "* filter=evil diff=evil\npkg/* filter=proc\n",
    },
  });
  await plantRepoConfig(markers, repo, run, askpass);
  const bareProject = await plantBareProject(repo, run);
  const env = await attackerEnvironment(markers, run);
  const hostile: HostileRepo = {
    repo,
    bareProject,
    markers,
    env,
    ran: async () => (await readdir(markers)).filter((name) => name.startsWith("ran-")).sort(),
    makeIndexRacy: () => utimes(repo.path(".git/index"), 1_000, 1_000),
    plainGit: async (cwd, args, options = {}) => {
      const child = exec("git", args, { cwd, env: options.env ?? fixtureGitEnv() });
      child.child.stdin?.end(options.input ?? "");
      await child.catch(() => {});
    },
    async [Symbol.asyncDispose]() {
      await repo.dispose();
      await rm(markers, { recursive: true, force: true });
    },
  };
  return hostile;
}

/** The program every planted setting runs (`run(name)` leaves `ran-<name>`), and an askpass. */
async function plantPrograms(markers: string) {
  const evil = join(markers, "evil.sh");
  // Filters and pagers pass their input through; every other program reads nothing.
  await writeFile(
    evil,
    `#!/bin/sh\ntouch "${markers}/ran-$1"\ncase "$1" in *clean|*smudge|*pager|*parameters) exec cat ;; esac\nexit 1\n`,
  );
  await chmod(evil, 0o755);
  const run = (name: string) => `${evil} ${name}`;
  // git runs an askpass program as one path, without a shell or arguments.
  const askpass = join(markers, "askpass");
  await writeFile(askpass, `#!/bin/sh\n${run("askpass")}\n`);
  await chmod(askpass, 0o755);
  return { run, askpass };
}

/** Hooks (in the clone and in a hooksPath) and a config of filters, helpers and aliases. */
async function plantRepoConfig(
  markers: string,
  repo: FixtureRepo,
  run: (name: string) => string,
  askpass: string,
): Promise<void> {
  const hooks = join(markers, "hooks");
  await mkdir(hooks);
  for (const hook of HOOKS) {
    for (const dir of [hooks, repo.path(".git/hooks")]) {
      await writeFile(join(dir, hook), `#!/bin/sh\n${run(`hook-${hook}`)} </dev/null\n`);
      await chmod(join(dir, hook), 0o755);
    }
  }
  // The clean and smudge filters come through an included file.
  const included = join(markers, "included.config");
  await writeFile(
    included,
    `[filter "evil"]\n\tclean = ${run("clean")}\n\tsmudge = ${run("smudge")}\n`,
  );
  const config: [string, string][] = [
    ["include.path", included],
    ["filter.proc.process", run("process")],
    ["diff.evil.textconv", run("textconv")],
    ["core.fsmonitor", run("fsmonitor")],
    ["core.untrackedCache", "true"],
    ["core.hooksPath", hooks],
    ["core.pager", run("pager")],
    ["core.askPass", askpass],
    ["credential.helper", `!${run("credential")}`],
    ["core.sshCommand", run("ssh")],
    ["diff.external", run("external")],
    ["alias.ls-files", `!${run("alias")}`],
  ];
  for (const [key, value] of config) await repo.git("config", key, value);
}

/** A folder of the clone that is a bare repository pointing its work tree at its parent. */
async function plantBareProject(repo: FixtureRepo, run: (name: string) => string): Promise<string> {
  const bareProject = repo.path("vendor/evil");
  await exec("git", ["init", "-q", "--bare", bareProject], { env: fixtureGitEnv() });
  for (const [key, value] of [
    ["core.bare", "false"],
    ["core.worktree", ".."],
    ["core.fsmonitor", run("bare-fsmonitor")],
  ]) {
    await exec("git", ["--git-dir", bareProject, "config", key!, value!], { env: fixtureGitEnv() });
  }
  return bareProject;
}

/** A user config and the GIT_* variables an attacker would leave behind. */
async function attackerEnvironment(
  markers: string,
  run: (name: string) => string,
): Promise<Record<string, string>> {
  const home = join(markers, "home");
  await mkdir(join(home, ".config", "git"), { recursive: true });
  await writeFile(join(home, ".gitconfig"), `[core]\n\tfsmonitor = ${run("user-fsmonitor")}\n`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "core.fsmonitor",
    GIT_CONFIG_VALUE_0: run("env-config"),
    GIT_CONFIG_PARAMETERS: `'filter.evil.clean'='${run("env-parameters")}'`,
    GIT_EXTERNAL_DIFF: run("env-external"),
    GIT_SSH_COMMAND: run("env-ssh"),
    GIT_ASKPASS: run("env-askpass"),
    SSH_ASKPASS: run("env-ssh-askpass"),
    GIT_PAGER: run("env-pager"),
  };
  return env;
}
