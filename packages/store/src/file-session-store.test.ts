import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionLockedError, StoreError } from "./errors.js";
import { FileSessionStore } from "./file-session-store.js";
import { readLog } from "./log-reader.js";
import { readMeta } from "./meta.js";
import { logRecord } from "./records.js";
import { assistantCall, msg, tempDir, toolResult, usage, userText } from "./test-helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
let store: FileSessionStore;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  store = new FileSessionStore({ dataDir: dir });
});
afterEach(() => cleanup());

describe("FileSessionStore", () => {
  it("creates a session folder with its log and meta, and tells the log's path", async () => {
    const session = await store.create({
      projectRoot: "/proj",
      title: "First",
      mode: "ask",
      model: "m",
    });
    expect(session.dir).toBe(join(dir, "sessions", session.id));
    expect(session.logPath).toBe(join(session.dir, "log.jsonl"));
    expect(session.id).toMatch(/^ses_/);
    await session.append(msg(userText("u1", "hello"), 5));
    await session.close();
    const meta = await readMeta(join(session.dir, "meta.json"));
    expect(meta).toMatchObject({
      v: 2,
      id: session.id,
      title: "First",
      projectRoot: "/proj",
      messageCount: 1,
      legacy: false,
    });
    expect(meta?.logBytes).toBe((await stat(session.logPath)).size);
  });

  it("reopens a session with its replay, and the live state equals the replay byte for byte", async () => {
    const session = await store.create({ projectRoot: "/proj" });
    await session.append(msg(userText("u1", "one")));
    await session.append(msg(assistantCall("a1", "c1")));
    await session.append(msg(toolResult("r1", "c1", "out")));
    await session.append(logRecord("usage", { usage: usage(0.3) }));
    await session.append(
      logRecord("toolResultsCleared", {
        clearing: { calls: [{ toolUseId: "c1" as never, artifact: null }] },
      }),
    );
    const live = session.snapshot();
    await session.close();
    const { replay, report, session: again } = await store.open(session.id);
    expect(JSON.stringify(replay)).toBe(JSON.stringify(live));
    expect(report).toEqual({
      damage: [],
      unknown: [],
      notices: [],
      tornTail: null,
      metaRebuilt: null,
      legacyImport: null,
    });
    await again.close();
  });

  it("lists sessions newest first from meta.json", async () => {
    const a = await store.create({ projectRoot: "/a", title: "A" });
    await a.append(logRecord("title", { title: "A" }, Date.now() + 20_000));
    await a.close();
    const b = await store.create({ projectRoot: "/b", title: "B" });
    await b.append(logRecord("title", { title: "B" }, Date.now() + 10_000));
    await b.close();
    const list = await store.list();
    expect(list.map((s) => s.title)).toEqual(["A", "B"]);
    expect(list.every((s) => s.source === "folder")).toBe(true);
  });

  it("lists an empty or missing data folder as no sessions", async () => {
    expect(await new FileSessionStore({ dataDir: join(dir, "none") }).list()).toEqual([]);
  });

  it("deletes a closed session and refuses to delete an open one", async () => {
    const session = await store.create({ projectRoot: "/p" });
    await expect(store.delete(session.id)).rejects.toBeInstanceOf(SessionLockedError);
    await session.close();
    await store.delete(session.id);
    expect(await store.list()).toEqual([]);
    await expect(store.open(session.id)).rejects.toMatchObject({ code: "notFound" });
    await expect(store.delete(session.id)).rejects.toMatchObject({ code: "notFound" });
  });

  it("rejects ids that are not safe folder names", async () => {
    for (const id of ["../etc", "a/b", "", ".hidden", "x".repeat(300)]) {
      await expect(store.open(id)).rejects.toMatchObject({ code: "invalidSessionId" });
      await expect(store.delete(id)).rejects.toMatchObject({ code: "invalidSessionId" });
    }
  });

  it("opens a missing session as notFound", async () => {
    await expect(store.open("ses_missing")).rejects.toBeInstanceOf(StoreError);
  });
});

describe("repair and heal on open", () => {
  it("cuts a torn tail, reports damaged and unknown lines, and keeps the session", async () => {
    const session = await store.create({ projectRoot: "/p" });
    await session.append(msg(userText("u1", "kept")));
    await session.close();
    await appendFile(session.logPath, "{broken json\n");
    await appendFile(session.logPath, `${JSON.stringify({ kind: "later", v: 2, ts: 1 })}\n`);
    await appendFile(session.logPath, `${JSON.stringify(msg(userText("u2", "kept too")))}\n`);
    await appendFile(session.logPath, '{"kind":"message","v":2,"ts":1,"mess');
    const { replay, report, session: again } = await store.open(session.id);
    expect(replay.workingSet.map((m) => m.id)).toEqual(["u1", "u2"]);
    expect(report.damage).toHaveLength(1);
    expect(report.unknown).toEqual([{ line: 4, kind: "later" }]);
    expect(report.tornTail?.bytes).toBe(36);
    expect(report.notices).toEqual([
      expect.objectContaining({ level: "warning", code: "log.tornTail" }),
    ]);
    await again.append(msg(userText("u3", "after")));
    await again.close();
    const read = await readLog(session.logPath);
    expect(read.tornTail).toBeNull();
    expect(read.unknown).toHaveLength(1); // unknown kinds stay on disk
    expect(read.records.filter((r) => r.kind === "message")).toHaveLength(3);
  });

  it("rebuilds a missing, damaged or stale meta.json from the log", async () => {
    const session = await store.create({ projectRoot: "/p", title: "T" });
    await session.append(logRecord("usage", { usage: usage(1.5) }));
    await session.close();
    const metaPath = join(session.dir, "meta.json");
    const cases: [string, () => Promise<void>][] = [
      [
        "missing",
        () =>
          writeFile(metaPath, "").then(() =>
            import("node:fs/promises").then((fs) => fs.unlink(metaPath)),
          ),
      ],
      ["damaged", () => writeFile(metaPath, "{ not json")],
      [
        "stale",
        () =>
          appendFile(
            session.logPath,
            `${JSON.stringify(logRecord("usage", { usage: usage(1) }))}\n`,
          ),
      ],
    ];
    for (const [reason, damage] of cases) {
      await damage();
      const { report, session: again } = await store.open(session.id);
      expect(report.metaRebuilt).toBe(reason);
      await again.close();
      expect(await readMeta(metaPath)).toMatchObject({ title: "T", projectRoot: "/p" });
    }
    expect((await readMeta(metaPath))?.costUsd).toBeCloseTo(2.5);
  });

  it("lists a session whose meta.json is damaged, from its log", async () => {
    const session = await store.create({ projectRoot: "/p", title: "Survivor" });
    await session.close();
    await writeFile(join(session.dir, "meta.json"), "garbage");
    expect((await store.list()).map((s) => s.title)).toEqual(["Survivor"]);
  });
});

describe("session handle", () => {
  it("writes subagent transcripts to agents/<id>.jsonl, in call order", async () => {
    const session = await store.create({ projectRoot: "/p" });
    const writes = ["a", "b", "c"].map((t) => session.appendAgent("agent_1", msg(userText(t, t))));
    await Promise.all(writes);
    const { replay } = await session.readAgent("agent_1");
    expect(replay.workingSet.map((m) => m.id)).toEqual(["a", "b", "c"]);
    expect(await readFile(join(session.dir, "agents", "agent_1.jsonl"), "utf8")).toContain(
      '"id":"b"',
    );
    await expect(session.appendAgent("../x", msg(userText("a", "a")))).rejects.toMatchObject({
      code: "invalidRecord",
    });
    await expect(session.readAgent("agent_none")).rejects.toMatchObject({ code: "notFound" });
    await session.close();
    await expect(session.appendAgent("agent_1", msg(userText("d", "d")))).rejects.toMatchObject({
      code: "closed",
    });
  });

  it("stores artifacts in the session folder", async () => {
    const session = await store.create({ projectRoot: "/p" });
    const ref = await session.artifacts.put("out.txt", "long output");
    expect(Buffer.from((await session.artifacts.read(ref.ref)) ?? []).toString()).toBe(
      "long output",
    );
    await session.close();
  });

  it("rejects appends after close and a bad record without writing it", async () => {
    const session = await store.create({ projectRoot: "/p" });
    await expect(session.append({ kind: "title", v: 2, ts: 1 } as never)).rejects.toMatchObject({
      code: "invalidRecord",
    });
    expect(session.snapshot().state.title).toBeNull();
    await session.close();
    await session.close();
    await expect(session.append(msg(userText("u", "late")))).rejects.toMatchObject({
      code: "closed",
    });
  });

  it("honours the artifact size limit option", async () => {
    const limited = new FileSessionStore({ dataDir: dir, artifactMaxBytes: 4 });
    const session = await limited.create({ projectRoot: "/p" });
    const ref = await session.artifacts.put("big", "123456789");
    expect(ref).toMatchObject({ bytes: 4, truncated: true });
    await session.close();
  });
});
