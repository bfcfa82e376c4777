import { resolvePaths } from "@z-engine/config";
import { readSessionHistory } from "@z-engine/engine";
import type { Message } from "@z-engine/protocol";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type Harness, harness } from "../harness.js";

// `--fork-session` and the Agent SDK's `forkSession`: a copy goes on, the original stays.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const texts = (messages: readonly Pick<Message, "content">[]) =>
  messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));

describe("forking a session", { timeout: 30_000 }, () => {
  it("goes on from the original's conversation in a new session and leaves the original as it was", async () => {
    h = await harness({
      files: { "a.txt": "one\n" },
      script: [
        reply.toolCall("Read", { file_path: "/dev/null" }),
        reply.text("The number is 42."),
        reply.text("Still 42, in the fork."),
      ],
      overrides: { mode: "bypass" },
      trusted: true,
    });
    await h.session.run("Remember the number 42.");
    await h.session.idle();
    const originalId = h.session.id;
    await h.session.close();
    const before = await readSessionHistory(resolvePaths(h.env).dataDir, originalId);

    const fork = await h.engine.forkSession(originalId, { mode: "bypass" });
    expect(fork.id).not.toBe(originalId);
    const summary = await fork.run("What was the number?");
    expect(summary.outcome).toBe("completed");

    const request = h.model.requests.at(-1);
    expect(texts(request?.messages ?? [])).toEqual([
      expect.stringContaining("Remember the number 42."),
      "The number is 42.",
      expect.stringContaining("What was the number?"),
    ]);
    // The copied tool call kept its result: the fork's request is well formed.
    const calls = request?.messages.flatMap((m) => m.content.filter((b) => b.type === "toolUse"));
    const results = request?.messages.flatMap((m) =>
      m.content.filter((b) => b.type === "toolResult"),
    );
    expect(calls).toHaveLength(1);
    expect(results).toHaveLength(1);

    const after = await readSessionHistory(resolvePaths(h.env).dataDir, originalId);
    expect(after.events).toEqual(before.events);
    const sessions = await h.engine.listSessions();
    const listed = sessions.find((s) => s.id === fork.id);
    expect(listed?.title).toMatch(/\(fork\)$/);
    const forkHistory = await readSessionHistory(resolvePaths(h.env).dataDir, fork.id);
    expect(forkHistory.events.map((e) => e.event)).toContainEqual(
      expect.objectContaining({ type: "notice", code: "session.forked" }),
    );
    await fork.close();
  });

  it("names the copy when the host gives an id, and refuses a taken one", async () => {
    h = await harness({ files: { "a.txt": "one\n" }, script: [reply.text("Hi.")], trusted: true });
    await h.session.run("hello");
    await h.session.idle();
    const originalId = h.session.id;
    await h.session.close();
    const id = "2b7d4e1f-9a3c-4c5e-8f6a-1d2e3f4a5b6c";
    const fork = await h.engine.forkSession(originalId, { sessionId: id });
    expect(fork.id).toBe(id);
    await fork.close();
    await expect(h.engine.forkSession(originalId, { sessionId: id })).rejects.toMatchObject({
      code: "exists",
    });
    expect((await h.engine.listSessions()).map((s) => s.id).sort()).toEqual(
      [originalId, id].sort(),
    );
  });

  it("rejects an unknown id with the store's reason and creates nothing", async () => {
    h = await harness({ files: { "a.txt": "one\n" }, script: [] });
    const count = (await h.engine.listSessions()).length;
    await expect(h.engine.forkSession("ses_doesnotexist0000000000")).rejects.toThrow();
    expect((await h.engine.listSessions()).length).toBe(count);
  });
});
