import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine, readSessionHistory } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import { createFixtureRepo, reply, ScriptedModel } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";

// A UI that reloads rebuilds its view from the stored session told as events.

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const LIVE_ONLY = new Set(["textDelta", "thinkingDelta", "toolProgress", "mcpServerUpdated"]);

describe("readSessionHistory", { timeout: 30_000 }, () => {
  it("tells a stored session as the lasting events a host saw, in order", async () => {
    const home = await mkdtemp(join(tmpdir(), "zeng-history-"));
    cleanup.push(() => rm(home, { recursive: true, force: true }));
    const repo = await createFixtureRepo({ files: { "a.txt": "one\n" } });
    cleanup.push(() => repo.dispose());
    const paths = resolvePaths({
      ZENGINE_HOME: join(home, "data"),
      ZENGINE_CONFIG_HOME: join(home, "c"),
    });
    const model = new ScriptedModel([
      reply.toolCall("Write", { file_path: join(repo.root, "b.txt"), content: "two\n" }),
      reply.text("changed it"),
    ]);
    const titles = new ScriptedModel([reply.text("A title")]);
    const engine = await createEngine({
      paths,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home },
      homeDir: home,
      clientFactory: ({ role }) => (role === "fast" ? titles : model),
      repoMap: false,
    });
    cleanup.push(() => engine.shutdown());
    const live: EventEnvelope[] = [];
    const session = await engine.createSession(repo.root, {
      mode: "bypass",
      trusted: true,
      onEvent: (e) => live.push(e),
    });
    const summary = await session.run("write b.txt");
    expect(summary.outcome).toBe("completed");
    await session.idle();

    const history = await readSessionHistory(paths.dataDir, session.id);
    expect(history.skipped).toBe(0);
    expect(history.events.map((e) => e.seq)).toEqual(history.events.map((_, i) => i));
    const kinds = (list: EventEnvelope[]) =>
      list
        .map((e) => e.event.type)
        .filter(
          (t) => !LIVE_ONLY.has(t) && t !== "verificationChanged" && t !== "checkpointCreated",
        );
    const storedTypes = kinds(history.events);
    expect(storedTypes).toEqual(
      expect.arrayContaining([
        "turnStarted",
        "assistantFinished",
        "toolStarted",
        "toolFinished",
        "turnFinished",
      ]),
    );
    // Every lasting event type the host saw comes back, in the same relative order for the turn's spine.
    const spine = ["turnStarted", "toolFinished", "turnFinished"];
    expect(storedTypes.filter((t) => spine.includes(t))).toEqual(
      kinds(live).filter((t) => spine.includes(t)),
    );
    const finished = history.events.find((e) => e.event.type === "toolFinished");
    expect(finished?.event).toMatchObject({ toolName: "Write", status: "ok" });
    expect(history.events.find((e) => e.event.type === "turnFinished")?.event).toMatchObject({
      type: "turnFinished",
      outcome: "completed",
    });
    const text = history.events.flatMap((e) =>
      e.event.type === "assistantFinished" ? e.event.message.content : [],
    );
    expect(text).toContainEqual({ type: "text", text: "changed it" });
  });

  it("rejects an unknown session with notFound and a malformed id with invalidSessionId", async () => {
    const home = await mkdtemp(join(tmpdir(), "zeng-history-"));
    cleanup.push(() => rm(home, { recursive: true, force: true }));
    await expect(readSessionHistory(home, "nope")).rejects.toMatchObject({ code: "notFound" });
    await expect(readSessionHistory(home, "../x")).rejects.toMatchObject({
      code: "invalidSessionId",
    });
  });
});
