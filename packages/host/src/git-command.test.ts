import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fixtureGitEnv } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCheckpointStore } from "./checkpoint/store.js";
import { fingerprint } from "./fingerprint.js";
import { GIT_NEUTRAL_CONFIG, safeGitCommand } from "./git-command.js";
import { type HostileRepo, createHostileRepo } from "./test-support/hostile-repo.js";

let checkpointsDir: string;
beforeEach(async () => {
  checkpointsDir = await mkdtemp(join(tmpdir(), "zeng-hostile-cp-"));
});
afterEach(async () => {
  await rm(checkpointsDir, { recursive: true, force: true });
});

describe("safeGitCommand", () => {
  it("drops every inherited GIT_ variable, reads no system or user config, and puts the neutral settings last", () => {
    const command = safeGitCommand(["status"], {
      env: { PATH: "/bin", GIT_DIR: "/x", git_exec_path: "/y", GIT_CONFIG_COUNT: "1", KEEP: "1" },
      set: { GIT_INDEX_FILE: "/i" },
      config: ["core.fsmonitor=/evil", "core.splitIndex=true"],
    });
    expect(command.env).toEqual({
      PATH: "/bin",
      KEEP: "1",
      GIT_INDEX_FILE: "/i",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_ATTR_NOSYSTEM: "1",
      GIT_TERMINAL_PROMPT: "0",
      GIT_OPTIONAL_LOCKS: "0",
      GIT_NO_REPLACE_OBJECTS: "1",
    });
    const settings = command.args.filter((_, i) => command.args[i - 1] === "-c");
    expect(settings).toEqual([
      "core.fsmonitor=/evil",
      "core.splitIndex=true",
      ...GIT_NEUTRAL_CONFIG,
    ]);
    expect(command.args[0]).toBe("--no-pager");
    expect(command.args.at(-1)).toBe("status");
    expect(safeGitCommand([], { env: {}, userConfig: true }).env.GIT_CONFIG_GLOBAL).toBeUndefined();
  });
});

describe("no program a repository or the environment names runs", () => {
  const layouts = [
    { name: "at the repository's top", project: (h: HostileRepo) => h.repo.root },
    { name: "in a subfolder", project: (h: HostileRepo) => h.repo.path("pkg") },
    { name: "in a planted bare repository", project: (h: HostileRepo) => h.bareProject },
  ];
  for (const layout of layouts) {
    it(`at fingerprint, snapshot, diff and restore, for a project ${layout.name}`, async () => {
      await using hostile = await createHostileRepo();
      const { env } = hostile;
      const project = layout.project(hostile);
      await hostile.makeIndexRacy();
      await fingerprint(project, { env });
      const store = createCheckpointStore({ checkpointsDir, projectRoot: project, env });
      const first = await store.snapshot("first");
      if ("disabled" in first) throw new Error(first.disabled);
      await writeFile(join(project, "new.txt"), "new\n");
      await hostile.makeIndexRacy();
      await store.diff(first.commit, "worktree");
      await fingerprint(project, { env });
      await store.restore(first.commit);
      expect(await hostile.ran()).toEqual([]);
    }, 60_000);
  }

  it("while each planted program does run under plain git (the plants are live)", async () => {
    await using hostile = await createHostileRepo();
    const { repo, env } = hostile;
    const plain = fixtureGitEnv();
    await hostile.makeIndexRacy();
    await hostile.plainGit(repo.root, ["status"]);
    await hostile.plainGit(hostile.bareProject, ["status"]);
    await hostile.plainGit(repo.root, ["status"], { env });
    await hostile.plainGit(repo.root, ["status"], { env: { ...plain, HOME: env.HOME } });
    await writeFile(repo.path("a.txt"), "changed\n");
    // (pathspecs keep git away from pkg/, whose failing process filter would stop it early)
    await hostile.plainGit(repo.root, ["diff", "--", "a.txt"]);
    const external = { ...plain, GIT_EXTERNAL_DIFF: env.GIT_EXTERNAL_DIFF };
    await hostile.plainGit(repo.root, ["diff", "--", "a.txt"], { env: external });
    await hostile.plainGit(repo.root, ["checkout", "--", "a.txt"]);
    await hostile.plainGit(repo.root, ["hook", "run", "pre-commit"]);
    await hostile.plainGit(repo.root, ["ls-files"]);
    await hostile.plainGit(repo.root, ["fetch", "ssh://example.invalid/x"]);
    await hostile.plainGit(repo.root, ["credential", "fill"], {
      input: "protocol=https\nhost=example.invalid\n\n",
    });
    expect(await hostile.ran()).toEqual(
      expect.arrayContaining([
        "ran-askpass",
        "ran-bare-fsmonitor",
        "ran-clean",
        "ran-credential",
        "ran-env-config",
        "ran-external",
        "ran-env-external",
        "ran-fsmonitor",
        "ran-hook-pre-commit",
        "ran-process",
        "ran-smudge",
        "ran-ssh",
      ]),
    );
  }, 60_000);
});
