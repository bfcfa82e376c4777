import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine, type Engine } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import { AppendLog, type CreateSessionOptions, FileSessionStore } from "@z-engine/store";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";

/**
 * A file store whose sessions flush through a device that cannot (/dev/null refuses fsync):
 * the log's own writes land, its fsync fails for real, as on a disk that returns EIO (the
 * full-disk suite's eio-fs row does that on a real FUSE mount).
 */
class UnflushableStore extends FileSessionStore {
  override async create(options: CreateSessionOptions) {
    const session = await super.create(options);
    const device = AppendLog.openRepaired("/dev/null");
    session.sync = () => device.sync();
    return session;
  }
}

/** A file store whose sessions' last fsync, at close, fails for real (/dev/null refuses it). */
class UnclosableStore extends FileSessionStore {
  override async create(options: CreateSessionOptions) {
    const session = await super.create(options);
    const device = AppendLog.openRepaired("/dev/null");
    const close = session.close.bind(session);
    session.close = async () => {
      try {
        await device.sync();
      } finally {
        await close();
      }
    };
    return session;
  }
}

type World = { engine: Engine; root: string; events: EventEnvelope[] };

/** An engine over `store` (made for the data folder) in a fresh home and fixture repository. */
async function withEngine(
  makeStore: (dataDir: string) => FileSessionStore,
  answers: string[],
  body: (world: World) => Promise<void>,
): Promise<void> {
  const repo = await createFixtureRepo({ files: { "a.txt": "alpha\n" } });
  const home = await mkdtemp(join(tmpdir(), "zeng-sync-fail-"));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  const paths = resolvePaths(env);
  const events: EventEnvelope[] = [];
  const engine = await createEngine({
    paths,
    env,
    headless: true,
    store: makeStore(paths.dataDir),
    clientFactory: () => new ScriptedModel(answers.map((text) => reply.text(text))),
    onEvent: (e) => events.push(e),
  });
  try {
    await body({ engine, root: repo.root, events });
  } finally {
    await engine.shutdown();
    await repo.dispose();
    await rm(home, { recursive: true, force: true });
  }
}

const noticesOf = (events: EventEnvelope[]) =>
  events.flatMap((e) => (e.event.type === "notice" ? [e.event] : []));

describe("a log that cannot be flushed (issue 47)", () => {
  it("keeps the turn's outcome and warns that its records may not survive a crash", async () => {
    await withEngine(
      (dataDir) => new UnflushableStore({ dataDir }),
      ["done"],
      async ({ engine, root, events }) => {
        const session = await engine.createSession(root, { mode: "bypass" });
        const summary = await session.run("hello");
        expect(summary.outcome).toBe("completed");
        expect(noticesOf(events)).toContainEqual(
          expect.objectContaining({
            level: "warning",
            code: "store.syncFailed",
            message:
              "the session log could not be flushed to the disk: cannot sync /dev/null: EINVAL: invalid argument, fsync; what this turn recorded may not survive a crash",
          }),
        );
      },
    );
  });

  it("closes a session whose last fsync fails: a warning, the session's lock released", async () => {
    await withEngine(
      (dataDir) => new UnclosableStore({ dataDir }),
      ["done", "again"],
      async ({ engine, root, events }) => {
        const session = await engine.createSession(root, { mode: "bypass" });
        expect((await session.run("hello")).outcome).toBe("completed");
        await expect(session.close()).resolves.toBeUndefined();
        expect(noticesOf(events)).toContainEqual(
          expect.objectContaining({
            level: "warning",
            code: "store.closeFailed",
            message:
              "the session log could not be closed cleanly: cannot sync /dev/null: EINVAL: invalid argument, fsync; its last records may not survive a crash",
          }),
        );
        // The store closed its log and let go of the lock: the session opens again.
        const again = await engine.openSession(session.id, { mode: "bypass" });
        expect((await again.run("and now?")).outcome).toBe("completed");
      },
    );
  });
});
