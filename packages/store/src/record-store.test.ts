import { describe, expect, it } from "vitest";
import { StoreError } from "./errors.js";
import type { LogName, RecordBackend } from "./record-backend.js";
import { createSessionStore } from "./record-store.js";
import { msg, userText } from "./test-helpers.js";

function mapBackend(): RecordBackend & { logs: Map<string, string>; failAppends: boolean } {
  const logs = new Map<string, string>();
  const key = (n: LogName) => `${n.sessionId}/${n.agentId ?? ""}`;
  const backend = {
    logs,
    failAppends: false,
    async append(n: LogName, text: string) {
      if (backend.failAppends) throw new Error("disk full");
      logs.set(key(n), (logs.get(key(n)) ?? "") + text);
    },
    read: async (n: LogName) => logs.get(key(n)),
    sessions: async () =>
      [...logs.keys()].filter((k) => k.endsWith("/")).map((k) => k.slice(0, -1)),
    async remove(id: string) {
      for (const k of [...logs.keys()]) if (k.startsWith(`${id}/`)) logs.delete(k);
    },
  };
  return backend;
}

describe("createSessionStore", () => {
  it("skips and reports a torn last line, and the next append starts a line of its own", async () => {
    const backend = mapBackend();
    const store = createSessionStore(backend);
    const session = await store.create({ projectRoot: "/p" });
    await session.append(msg(userText("u1", "kept")));
    await session.close();
    const key = `${session.id}/`;
    backend.logs.set(key, `${backend.logs.get(key)}{"kind":"message","v":2,"ts":1,"mes`);
    const opened = await store.open(session.id);
    expect(opened.report.notices.map((n) => n.code)).toEqual(["log.tornTail"]);
    expect(opened.replay.workingSet.map((m) => m.id)).toEqual(["u1"]);
    await opened.session.append(msg(userText("u2", "after")));
    await opened.session.close();
    const again = await store.open(session.id);
    expect(again.replay.workingSet.map((m) => m.id)).toEqual(["u1", "u2"]);
    expect(again.report.damage).toHaveLength(1); // the fragment, on a line of its own
    expect(again.report.notices).toEqual([]);
    await again.session.close();
  });

  it("rejects a failed backend append with appendFailed and folds nothing", async () => {
    const backend = mapBackend();
    const store = createSessionStore(backend);
    const session = await store.create({ projectRoot: "/p" });
    backend.failAppends = true;
    const failed = await session.append(msg(userText("u1", "lost"))).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StoreError);
    expect((failed as StoreError).code).toBe("appendFailed");
    expect((failed as StoreError).message).toMatch(/^cannot append to .+: disk full$/);
    expect(session.workingSet()).toEqual([]);
    backend.failAppends = false;
    await session.append(msg(userText("u2", "kept")));
    expect(session.workingSet().map((m) => m.id)).toEqual(["u2"]);
    await session.close();
  });
});
