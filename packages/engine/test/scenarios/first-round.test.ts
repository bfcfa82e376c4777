import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { ModelClient } from "@z-engine/protocol";
import { reply, ScriptedModel } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness, loginFix, loginProject, waitForCount } from "../harness.js";

// Issue 18: nothing git does at turn start sits on the first round's path. The snapshot and
// the start fingerprint run while the first request streams; only the first call that may
// write waits for them. A small project in a plain repository needs no git process for
// either; config that includes another file is git's to read, which is how these tests
// make the turn's git work go through git (and hold it there).

/** Makes the project's repository one the engine leaves to git (see above). */
const leaveToGit = (harness: Harness) => harness.repo.git("config", "include.path", "more.inc");

const run = promisify(execFile);
/** The CommonJS face of child_process: patched there, its ESM importers see it after a sync. */
const childProcess = createRequire(import.meta.url)(
  "node:child_process",
) as typeof import("node:child_process");
let h: Harness | undefined;
let bin: string | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  if (bin) await rm(bin, { recursive: true, force: true });
  bin = undefined;
});

/**
 * A git on PATH that holds the calls `pattern` matches (a `case` pattern over
 * "$GIT_DIR $*") until `release` exists, for at most 5 s, and logs how each ended.
 */
async function holdingGit(
  pattern: string,
): Promise<{ release: string; log: string; env: Record<string, string> }> {
  bin = await mkdtemp(join(tmpdir(), "zeng-git-"));
  const release = join(bin, "release");
  const log = join(bin, "held.log");
  const realGit = (await run("sh", ["-c", "command -v git"])).stdout.trim();
  await writeFile(
    join(bin, "git"),
    `#!/bin/sh
case "$GIT_DIR $*" in ${pattern})
  n=0
  while [ ! -e '${release}' ]; do
    n=$((n+1)); if [ $n -gt 500 ]; then echo timeout >> '${log}'; exit 1; fi
    sleep 0.01
  done
  echo released >> '${log}';;
esac
exec '${realGit}' "$@"
`,
  );
  await chmod(join(bin, "git"), 0o755);
  return {
    release,
    log,
    env: {
      PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: tmpdir(),
      ZENGINE_CONFIG_HOME: join(bin, "config"),
      ZENGINE_HOME: join(bin, "data"),
    },
  };
}

describe("the first round of a turn", { timeout: 60_000 }, () => {
  it("runs a read-only call without waiting for the snapshot, and the first edit after it", async () => {
    const git = await holdingGit("*checkpoints*");
    h = await harness({
      files: loginProject,
      script: [],
      overrides: { mode: "bypass" },
      engine: { env: git.env },
    });
    await leaveToGit(h);
    const token = h.repo.path("src/auth/token.js");
    h.model.push(
      reply.toolCall("Read", { file_path: token }),
      reply.toolCall("Edit", { ...loginFix, file_path: token }),
      reply.text("Fixed."),
    );
    const done = h.session.run("fix it");
    // Deadlocks (the snapshot is held) if Read waits for the checkpoint.
    await waitForCount(h, "toolFinished", 1);
    expect(h.recorder.ofType("checkpointCreated")).toHaveLength(0);
    await writeFile(git.release, "");
    expect((await done).outcome).toBe("completed");
    h.recorder.expectSubsequence([
      { type: "toolStarted", toolName: "Read" },
      { type: "toolFinished" },
      "checkpointCreated",
      { type: "toolStarted", toolName: "Edit" },
    ]);
    expect(await readFile(git.log, "utf8")).not.toContain("timeout");
    // The checkpoint holds the file as it was before the edit.
    const [started] = h.recorder.ofType("turnStarted");
    h.session.send({ type: "rewind", messageId: started!.userMessageId, restore: "code" });
    await h.session.idle();
    expect(await h.repo.read("src/auth/token.js")).toContain("now > token.expiresAt");
  });

  it("sends the first request while the start fingerprint is still being taken", async () => {
    // The fingerprint's ls-files (in the project's repository, whose GIT_DIR the git door
    // sets, not the shadow repository) is held until the first request streams.
    const git = await holdingGit("*/.git\\ *ls-files*");
    let inner: ModelClient | undefined;
    const held: ModelClient = {
      stream(request, options) {
        return (async function* () {
          if (!existsSync(git.release)) await writeFile(git.release, "");
          yield* (inner as ModelClient).stream(request, options);
        })();
      },
    };
    h = await harness({
      files: loginProject,
      script: [],
      overrides: { mode: "bypass" },
      engine: {
        env: git.env,
        checkpoints: false,
        clientFactory: ({ role }) => (role === "fast" ? (h as Harness).fast : held),
      },
    });
    inner = h.model;
    await leaveToGit(h);
    h.model.push(
      reply.toolCall("Bash", { command: "echo changed > notes.txt" }),
      reply.text("Done."),
    );
    const summary = await h.session.run("change a file");
    expect(summary.outcome).toBe("completed");
    const log = await readFile(git.log, "utf8");
    expect(log).toContain("released");
    expect(log).not.toContain("timeout");
    // Bash changed a file no write tool reported: the start fingerprint caught it.
    const [finished] = h.recorder.ofType("turnFinished");
    expect(finished?.badge.status).not.toBe("notApplicable");
  });

  it.each([
    ["a plain repository", false],
    ["one left to git", true],
  ])(
    "spawns no child process before the first request in %s, and still checkpoints the files as they were",
    async (_, viaGit) => {
      // Every spawn of this process is counted (the engine's git calls included: node's
      // built-in modules hand their ESM importers the patched function after the sync).
      const spawned: string[] = [];
      const realSpawn = childProcess.spawn;
      childProcess.spawn = ((...args: Parameters<typeof realSpawn>) => {
        spawned.push(String(args[0]));
        return realSpawn(...args);
      }) as typeof realSpawn;
      syncBuiltinESMExports();
      try {
        let atFirstRequest: number | undefined;
        let inner: ModelClient | undefined;
        const counting: ModelClient = {
          stream(request, options) {
            atFirstRequest ??= spawned.length;
            return (inner as ModelClient).stream(request, options);
          },
        };
        h = await harness({
          files: loginProject,
          script: [],
          overrides: { mode: "bypass" },
          engine: {
            clientFactory: ({ role }) => (role === "fast" ? (h as Harness).fast : counting),
          },
        });
        inner = h.model;
        if (viaGit) await leaveToGit(h);
        const token = h.repo.path("src/auth/token.js");
        h.model.push(
          reply.toolCall("Edit", { ...loginFix, file_path: token }),
          reply.text("Fixed."),
        );
        const beforeTurn = spawned.length;
        expect((await h.session.run("fix it")).outcome).toBe("completed");
        expect(atFirstRequest).toBe(beforeTurn);
        // Through git, the turn's git work ran after the request; in a plain repository it
        // ran in process. Either way the checkpoint holds the file before the edit.
        if (viaGit) expect(spawned.length).toBeGreaterThan(beforeTurn);
        else expect(spawned).toHaveLength(beforeTurn);
        const [started] = h.recorder.ofType("turnStarted");
        h.session.send({ type: "rewind", messageId: started!.userMessageId, restore: "code" });
        await h.session.idle();
        expect(await h.repo.read("src/auth/token.js")).toContain("now > token.expiresAt");
      } finally {
        childProcess.spawn = realSpawn;
        syncBuiltinESMExports();
      }
    },
  );

  it("has its main client made when the session opens, before any request", async () => {
    const made: string[] = [];
    const scripted = new ScriptedModel([]);
    h = await harness({
      files: loginProject,
      script: [],
      engine: {
        clientFactory: ({ role, model }) => {
          made.push(`${role}:${model}`);
          return scripted;
        },
      },
    });
    // A built-in client starts importing its SDK when it is made (settings/models.ts).
    expect(made.filter((m) => m.startsWith("main:"))).toHaveLength(1);
    expect(scripted.requests).toHaveLength(0);
  });
});
