import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSessionStore } from "./file-session-store.js";
import { parseLegacyChat } from "./legacy.js";
import { readMeta } from "./meta.js";
import { tempDir } from "./test-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let store: FileSessionStore;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  store = new FileSessionStore({ dataDir: dir });
  await mkdir(store.sessionsDir, { recursive: true });
});
afterEach(() => cleanup());

const V1 = [
  JSON.stringify({ title: "Old chat" }),
  JSON.stringify({ role: "user", content: "fix the bug", ts: 1_600_000_000_000 }),
  JSON.stringify({
    role: "assistant",
    content: [{ type: "text", text: "done" }],
    ts: 1_600_000_001_000,
  }),
  "",
].join("\n");

describe("parseLegacyChat", () => {
  it("reads the title line and the messages", () => {
    const chat = parseLegacyChat(V1, 0);
    expect(chat.title).toBe("Old chat");
    expect(chat.messages).toEqual([
      { role: "user", text: "fix the bug", ts: 1_600_000_000_000 },
      { role: "assistant", text: "done", ts: 1_600_000_001_000 },
    ]);
    expect(chat.damage).toEqual([]);
  });

  it("reports lines it cannot convert, a torn last line included, and keeps the rest", () => {
    const text = [
      JSON.stringify({ role: "user", content: "a", ts: "2020-01-01T00:00:00Z" }),
      JSON.stringify({ role: "system", content: "x" }),
      JSON.stringify({ role: "user", content: 42 }),
      JSON.stringify({ title: "late title" }),
      JSON.stringify({ role: "assistant", content: "b", ts: 1_600_000_000 }),
      '{"role":"user","con',
    ].join("\n");
    const chat = parseLegacyChat(text, 7);
    expect(chat.title).toBeNull();
    expect(chat.messages.map((m) => [m.text, m.ts])).toEqual([
      ["a", Date.parse("2020-01-01T00:00:00Z")],
      ["b", 1_600_000_000_000],
    ]);
    expect(chat.damage.map((d) => d.line)).toEqual([2, 3, 4, 6]);
  });
});

describe("v1 import", () => {
  it("lists a v1 file with a v1 tag, converts it on open, and leaves the original untouched", async () => {
    const file = join(store.sessionsDir, "chat-1.jsonl");
    await writeFile(file, V1);
    const before = await stat(file);
    const listed = await store.list();
    expect(listed).toMatchObject([
      { id: "chat-1", title: "Old chat", legacy: true, source: "v1File", messageCount: 2 },
    ]);

    const { session, replay, report } = await store.open("chat-1");
    expect(report.legacyImport).toEqual({ file, damage: [] });
    expect(report.notices.map((n) => n.code)).toEqual(["log.legacyImport"]);
    expect(replay.state.title).toBe("Old chat");
    expect(replay.workingSet.map((m) => [m.role, m.content])).toEqual([
      ["user", [{ type: "text", text: "fix the bug" }]],
      ["assistant", [{ type: "text", text: "done" }]],
    ]);
    await session.close();

    expect(await readFile(file, "utf8")).toBe(V1);
    expect((await stat(file)).mtimeMs).toBe(before.mtimeMs);
    expect(await readMeta(join(store.sessionsDir, "chat-1", "meta.json"))).toMatchObject({
      legacy: true,
      title: "Old chat",
    });
    const after = await store.list();
    expect(after).toMatchObject([{ id: "chat-1", legacy: true, source: "folder" }]);

    // A second open uses the folder; the import happens once.
    const again = await store.open("chat-1");
    expect(again.report.legacyImport).toBeNull();
    expect(again.replay.workingSet).toHaveLength(2);
    await again.session.close();
  });

  it("reads v1 files from a separate legacy folder when told", async () => {
    const legacyDir = join(dir, "v1");
    await mkdir(legacyDir);
    await writeFile(join(legacyDir, "old.jsonl"), V1);
    const withLegacy = new FileSessionStore({ dataDir: dir, legacyDir });
    expect((await withLegacy.list()).map((s) => s.id)).toEqual(["old"]);
    const { session } = await withLegacy.open("old");
    await session.close();
    expect(await readFile(join(legacyDir, "old.jsonl"), "utf8")).toBe(V1);
  });

  it("converts a damaged v1 file, reporting what it could not convert", async () => {
    await writeFile(
      join(store.sessionsDir, "bad.jsonl"),
      `not json\n${JSON.stringify({ role: "user", content: "ok" })}\n`,
    );
    const { session, replay, report } = await store.open("bad");
    expect(report.legacyImport?.damage.map((d) => d.line)).toEqual([1]);
    expect(replay.workingSet).toHaveLength(1);
    await session.close();
  });

  it("imports once when two opens race (the loser sees the lock)", async () => {
    await writeFile(join(store.sessionsDir, "race.jsonl"), V1);
    const results = await Promise.allSettled([store.open("race"), store.open("race")]);
    const won = results.filter((r) => r.status === "fulfilled");
    expect(won).toHaveLength(1);
    if (won[0]?.status === "fulfilled") {
      expect(won[0].value.replay.workingSet).toHaveLength(2);
      await won[0].value.session.close();
    }
    const { replay, session } = await store.open("race");
    expect(replay.workingSet).toHaveLength(2);
    await session.close();
  });
});
