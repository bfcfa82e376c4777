import { readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { MessageId } from "@z-engine/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSessionStore } from "./file-session-store.js";
import type { FileSession } from "./file-session.js";
import { readLog } from "./log-reader.js";
import { readMeta, type SessionMeta, writeMeta } from "./meta.js";
import { logRecord } from "./records.js";
import { replay } from "./replay.js";
import { findLastResumePoint } from "./resume-scan.js";
import { assistantCall, mid, msg, tempDir, toolResult, usage, userText } from "./test-helpers.js";

let cleanup: () => Promise<void>;
let store: FileSessionStore;
beforeEach(async () => {
  const made = await tempDir();
  cleanup = made.cleanup;
  store = new FileSessionStore({ dataDir: made.dir });
});
afterEach(() => cleanup());

const compaction = (dropped: string[], summaryId: string) =>
  logRecord("compaction", {
    compaction: {
      trigger: "auto",
      summary: userText(summaryId, `summary of ${dropped.join(", ")}`),
      droppedMessageIds: dropped.map(mid),
      tokensBefore: 100,
      tokensAfter: 10,
    },
  });

/** A session of two turns, compacted after the first, then a third message. */
async function compactedSession(): Promise<FileSession> {
  const session = await store.create({ projectRoot: "/p", title: "T" });
  await session.append(
    logRecord("turnStarted", { turnId: "t1" as never, userMessageId: mid("u1"), prompt: "one" }),
  );
  await session.append(msg(userText("u1", "early message")));
  await session.append(msg(assistantCall("a1", "c1")));
  await session.append(msg(toolResult("r1", "c1", "early output")));
  await session.append(logRecord("usage", { usage: usage(0.25) }));
  await session.append(msg(userText("u2", "second")));
  await session.append(compaction(["u1", "a1", "r1"], "s1"));
  await session.append(msg(userText("u3", "third")));
  await session.append(logRecord("usage", { usage: usage(0.5) }));
  return session;
}

const whole = async (path: string) => replay((await readLog(path)).records);
const json = (value: unknown) => JSON.stringify(value);

describe("resume points", () => {
  it("are written after a compaction, and open starts there with the whole log's state", async () => {
    const session = await compactedSession();
    const live = session.snapshot();
    expect(live.earlierHistory).toBe(true);
    expect(live.transcript.map((r) => r.kind)).toEqual(["message"]);
    await session.close();
    const full = await whole(session.logPath);
    const { replay: resumed, session: again } = await store.open(session.id);
    expect(resumed.earlierHistory).toBe(true);
    expect(json(resumed.workingSet)).toBe(json(full.workingSet));
    expect(resumed.workingSet.map((m) => m.id)).toEqual(["s1", "u2", "u3"]);
    expect(json(resumed.state)).toBe(json(full.state));
    expect(resumed.totalUsage.costUsd).toBe(0.75);
    expect(json(await again.transcript())).toBe(json(full.transcript));
    await again.close();
  });

  it("never reads the lines before the resume point", async () => {
    const session = await compactedSession();
    await session.close();
    const text = await readFile(session.logPath, "utf8");
    // Damage an early line in place (same length): a read of it would report it.
    const early = text.indexOf("early output");
    await writeFile(session.logPath, `${text.slice(0, early)}\u0000${text.slice(early + 1)}`);
    const broken = text.slice(0, early).lastIndexOf("\n") + 1;
    expect(broken).toBeLessThan((await findLastResumePoint(session.logPath)) ?? 0);
    const { report, replay: resumed, session: again } = await store.open(session.id);
    expect(report.damage).toEqual([]);
    expect(resumed.workingSet.map((m) => m.id)).toEqual(["s1", "u2", "u3"]);
    await again.close();
  });

  it("a rewind to before the resume point folds the whole log, live and on open", async () => {
    const session = await compactedSession();
    await session.close();
    const { session: again } = await store.open(session.id);
    const rewind = logRecord("rewind", {
      messageId: mid("u2") as MessageId,
      restore: "conversation",
      restoredPaths: [],
      unstorable: [],
    });
    await again.append(rewind);
    expect(again.workingSet().map((m) => m.id)).toEqual(["u1", "a1", "r1"]);
    const live = again.workingSet();
    await again.close();
    expect(json((await whole(session.logPath)).workingSet)).toBe(json(live));
    const { replay: reopened, session: third } = await store.open(session.id);
    expect(json(reopened.workingSet)).toBe(json(live));
    expect(reopened.warnings).toEqual([]);
    await third.close();
  });

  it("a half-written resume point is cut, and open starts from the one before", async () => {
    const session = await compactedSession();
    await session.append(compaction(["s1"], "s2"));
    await session.close();
    const path = session.logPath;
    const last = (await findLastResumePoint(path)) ?? 0;
    const before = await whole(path);
    // As if the process died in the middle of writing the last resume point.
    await truncate(path, last + 40);
    const {
      report,
      replay: resumed,
      session: again,
    } = await store.open(path.split("/").at(-2) ?? "");
    expect(report.tornTail?.bytes).toBe(40);
    expect(json(resumed.workingSet)).toBe(json(before.workingSet));
    expect(resumed.workingSet.map((m) => m.id)).toEqual(["s2", "u2", "u3"]);
    await again.append(msg(userText("u4", "after")));
    await again.close();
    const after = await whole(path);
    expect(after.workingSet.map((m) => m.id)).toEqual(["s2", "u2", "u3", "u4"]);
  });

  it("meta.json names the last resume point, and a wrong hint still opens right", async () => {
    const session = await compactedSession();
    await session.close();
    const metaPath = join(session.dir, "meta.json");
    const meta = await readMeta(metaPath);
    expect(meta?.resumeAt).toBe(await findLastResumePoint(session.logPath));
    const full = await whole(session.logPath);
    for (const resumeAt of [3, null]) {
      await writeMeta(metaPath, { ...(meta as SessionMeta), resumeAt });
      const { replay: resumed, session: again } = await store.open(session.id);
      expect(json(resumed.workingSet)).toBe(json(full.workingSet));
      expect(json(resumed.state)).toBe(json(full.state));
      await again.close();
    }
  });

  it("finds no resume point in a log without compactions, or a missing file", async () => {
    const session = await store.create({ projectRoot: "/p" });
    await session.append(msg(userText("u1", '{"kind":"resumePoint" inside a text')));
    await session.close();
    expect(await findLastResumePoint(session.logPath)).toBeNull();
    expect(await findLastResumePoint(`${session.logPath}.missing`)).toBeNull();
  });
});
