import type { Message, MessageId, ToolCallId, TurnId } from "@z-engine/protocol";
import {
  type LogRecord,
  logRecord,
  type Session,
  type SessionStore,
  StoreError,
} from "@z-engine/store";
import type * as Vitest from "vitest";

/** A store for `runStoreConformance` to test, and what it can do besides the contract. */
export interface StoreUnderTest {
  readonly store: SessionStore;
  /** The same sessions seen by a new store object, as after a restart (default: `store`). */
  reopen?(): SessionStore | Promise<SessionStore>;
  /**
   * Leaves a half-written record at the end of a closed session's log, as a crash in the
   * middle of an append would. Give it when the store can be torn (files); the suite then
   * checks that open repairs it, reports it, and loses nothing else.
   */
  tearLastRecord?(sessionId: string): Promise<void>;
  /** Removes what the store left (temp folders). */
  dispose?(): Promise<void>;
}

type Api = Pick<typeof Vitest, "describe" | "it" | "expect" | "afterEach">;

const mid = (s: string) => s as MessageId;
const cid = (s: string) => s as ToolCallId;
const user = (id: string, text: string): Message => ({
  id: mid(id),
  role: "user",
  content: [{ type: "text", text }],
});
const call = (id: string, callId: string): Message => ({
  id: mid(id),
  role: "assistant",
  content: [{ type: "toolUse", id: cid(callId), name: "Read", input: { file_path: "/a" } }],
});
const result = (id: string, callId: string, text: string): Message => ({
  id: mid(id),
  role: "user",
  content: [
    {
      type: "toolResult",
      toolUseId: cid(callId),
      content: [{ type: "text", text }],
      isError: false,
    },
  ],
});
const msg = (message: Message) => logRecord("message", { message });
const ids = (messages: readonly Message[]) => messages.map((m) => m.id as string);
const usage = (costUsd: number) => ({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0, costUsd });

/**
 * Registers a vitest suite named `name` that checks a `SessionStore` against the contract
 * the engine relies on: create records, open/append/replay round trips, call order, the
 * working set (compaction, cleared results, rewind, task view), the resume report, list and
 * delete, locks, subagent transcripts, artifacts, closed sessions and, when the store can be
 * torn, crash repair. `factory` makes a fresh, empty store for each test. Await it at the top
 * level of a test file (vitest is loaded on demand, so importing testkit never needs it).
 */
export async function runStoreConformance(
  name: string,
  factory: () => StoreUnderTest | Promise<StoreUnderTest>,
): Promise<void> {
  // A computed specifier: bundlers leave it alone and hosts without vitest never load it.
  const specifier = "vitest";
  const api = (await import(specifier)) as Api;
  api.describe(`${name} (store conformance)`, () => registerTests(api, factory));
}

function registerTests(api: Api, factory: () => StoreUnderTest | Promise<StoreUnderTest>): void {
  const { it, expect, afterEach } = api;
  let current: StoreUnderTest | undefined;
  const open: Session[] = [];
  const subject = async () => {
    current = await factory();
    return current;
  };
  const track = <S extends Session>(session: S) => {
    open.push(session);
    return session;
  };
  const reopened = async (s: StoreUnderTest) => (s.reopen ? await s.reopen() : s.store);
  afterEach(async () => {
    for (const session of open.splice(0)) await session.close().catch(() => {});
    await current?.dispose?.();
    current = undefined;
  });
  const errorCode = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error instanceof StoreError ? error.code : `not a StoreError: ${String(error)}`;
    }
    return "resolved";
  };

  it("create records the session and its options, and open replays them", async () => {
    const s = await subject();
    const session = track(
      await s.store.create({
        projectRoot: "/p",
        title: "T",
        mode: "plan",
        model: "m",
        effort: "low",
      }),
    );
    expect(session.snapshot().state).toMatchObject({ sessionId: session.id, projectRoot: "/p" });
    await session.close();
    const { replay, report } = await (await reopened(s)).open(session.id).then((o) => {
      track(o.session);
      return o;
    });
    expect(replay.state).toMatchObject({
      sessionId: session.id,
      projectRoot: "/p",
      title: "T",
      mode: "plan",
      model: "m",
      effort: "low",
    });
    expect(report.damage).toEqual([]);
    expect(replay.resume.clean).toBe(true);
  });

  it("appends in call order, unawaited included, and a replay equals the live fold", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    const pending = [1, 2, 3, 4, 5].map((i) => session.append(msg(user(`u${i}`, `m${i}`))));
    await Promise.all(pending);
    await session.append(logRecord("usage", { usage: usage(0.5) }));
    expect(ids(session.workingSet())).toEqual(["u1", "u2", "u3", "u4", "u5"]);
    const live = session.snapshot();
    await session.close();
    const opened = await (await reopened(s)).open(session.id);
    track(opened.session);
    expect(JSON.stringify(opened.replay.workingSet)).toBe(JSON.stringify(live.workingSet));
    expect(JSON.stringify(opened.replay.transcript)).toBe(JSON.stringify(live.transcript));
    expect(opened.replay.totalUsage.costUsd).toBe(0.5);
    expect(JSON.stringify(await opened.session.transcript())).toBe(JSON.stringify(live.transcript));
  });

  it("refuses a bad record with invalidRecord and keeps it out of the log", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    const bad = { kind: "message", v: 2, ts: 1 } as unknown as LogRecord;
    expect(await errorCode(session.append(bad))).toBe("invalidRecord");
    await session.append(msg(user("u1", "fine")));
    await session.close();
    const opened = await (await reopened(s)).open(session.id);
    track(opened.session);
    expect(ids(opened.replay.workingSet)).toEqual(["u1"]);
  });

  it("folds compaction, cleared results, rewind and task views the same live and replayed", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    for (const m of [user("u1", "a"), call("a1", "c1"), result("r1", "c1", "long output")])
      await session.append(msg(m));
    const clearing = { calls: [{ toolUseId: cid("c1"), artifact: null }] };
    await session.append(logRecord("toolResultsCleared", { clearing }));
    const summary = user("s1", "summary of u1");
    await session.append(
      logRecord("compaction", {
        compaction: {
          trigger: "auto",
          summary,
          droppedMessageIds: [mid("u1")],
          tokensBefore: 10,
          tokensAfter: 5,
        },
      }),
    );
    for (const m of [user("u2", "b"), user("u3", "c")]) await session.append(msg(m));
    expect(ids(session.workingSet())).toEqual(["s1", "a1", "r1", "u2", "u3"]);
    expect(JSON.stringify(session.workingSet()[2])).not.toContain("long output");
    await session.append(
      logRecord("rewind", {
        messageId: mid("u3"),
        restore: "conversation",
        restoredPaths: [],
        unstorable: [],
      }),
    );
    expect(ids(session.workingSet())).toEqual(["s1", "a1", "r1", "u2"]);
    await session.append(
      logRecord("taskView", { keptMessageIds: [mid("u2")], indexMessage: user("ix", "index") }),
    );
    expect(ids(session.workingSet())).toEqual(["ix", "u2"]);
    await session.append(logRecord("taskView", { restored: true }));
    const live = session.workingSet();
    await session.close();
    const opened = await (await reopened(s)).open(session.id);
    track(opened.session);
    expect(JSON.stringify(opened.replay.workingSet)).toBe(JSON.stringify(live));
    expect(JSON.stringify(opened.session.workingSet())).toBe(JSON.stringify(live));
  });

  it("workingSet() is the same array until an append changes it, and never changes after", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    await session.append(msg(user("u1", "a")));
    const first = session.workingSet();
    expect(session.workingSet()).toBe(first);
    await session.append(msg(user("u2", "b")));
    const second = session.workingSet();
    expect(ids(first)).toEqual(["u1"]);
    expect(ids(second)).toEqual(["u1", "u2"]);
  });

  it("reports what a session left open, and a turn's end closes it", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    const turnId = "turn_1" as TurnId;
    await session.append(
      logRecord("turnStarted", { turnId, userMessageId: mid("u1"), prompt: "go" }),
    );
    await session.append(msg(user("u1", "go")));
    await session.append(msg(call("a1", "c1")));
    await session.close();
    const opened = await (await reopened(s)).open(session.id);
    track(opened.session);
    expect(opened.replay.resume.unfinishedTurn).toBe(turnId);
    expect(opened.replay.resume.pendingToolCalls.map((c) => c.toolCallId)).toEqual(["c1"]);
  });

  it("lists newest first, deletes, and answers unknown ids with notFound", async () => {
    const s = await subject();
    const a = track(await s.store.create({ projectRoot: "/a", title: "first" }));
    await a.close();
    const b = track(await s.store.create({ projectRoot: "/b" }));
    // Later activity (a minute on, so the order never rests on a millisecond tick).
    await b.append(logRecord("title", { title: "second" }, Date.now() + 60_000));
    await b.close();
    const listed = await (await reopened(s)).list();
    expect(listed.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(listed[0]).toMatchObject({ title: "second", projectRoot: "/b" });
    const store = await reopened(s);
    await store.delete(a.id);
    expect((await store.list()).map((x) => x.id)).toEqual([b.id]);
    expect(await errorCode(store.open(a.id))).toBe("notFound");
    expect(await errorCode(store.delete(a.id))).toBe("notFound");
    expect(await errorCode(store.open("sess_none"))).toBe("notFound");
  });

  it("creates a session under the id a host names, once; an unsafe id is invalidSessionId", async () => {
    const s = await subject();
    const id = "0f8b2c9e-4d1a-4b7e-9c3f-2a6d8e1b5c70";
    const session = track(await s.store.create({ projectRoot: "/p", id, title: "named" }));
    expect(session.id).toBe(id);
    expect(session.snapshot().state.sessionId).toBe(id);
    expect(await errorCode(s.store.create({ projectRoot: "/p", id }))).toBe("exists");
    await session.close();
    const store = await reopened(s);
    expect(await errorCode(store.create({ projectRoot: "/p", id }))).toBe("exists");
    expect(await errorCode(store.create({ projectRoot: "/p", id: "../escape" }))).toBe(
      "invalidSessionId",
    );
    const opened = track((await store.open(id)).session);
    expect(opened.snapshot().state).toMatchObject({ sessionId: id, title: "named" });
    expect((await store.list()).map((x) => x.id)).toEqual([id]);
  });

  it("holds a session open once: a second open and a delete reject with locked", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    expect(await errorCode(s.store.open(session.id))).toBe("locked");
    expect(await errorCode(s.store.delete(session.id))).toBe("locked");
    await session.close();
    track((await s.store.open(session.id)).session);
  });

  it("keeps subagent transcripts apart, and refuses unsafe agent ids", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    await session.appendAgent("agent_1", msg(user("x1", "sub")));
    await session.appendAgent("agent_1", msg(user("x2", "sub again")));
    const read = await session.readAgent("agent_1");
    expect(ids(read.replay.workingSet)).toEqual(["x1", "x2"]);
    expect(ids(session.workingSet())).toEqual([]);
    expect(await errorCode(session.readAgent("agent_2"))).toBe("notFound");
    expect(await errorCode(session.appendAgent("../escape", msg(user("y", "y"))))).toBe(
      "invalidRecord",
    );
  });

  it("stores artifacts and reads them back", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    const ref = await session.artifacts.put("out.txt", "hello");
    expect(ref.bytes).toBe(5);
    expect(new TextDecoder().decode(await session.artifacts.read(ref.ref))).toBe("hello");
    expect(await session.artifacts.read("artifact:missing")).toBeUndefined();
  });

  it("refuses appends after close with closed; close twice is fine", async () => {
    const s = await subject();
    const session = track(await s.store.create({ projectRoot: "/p" }));
    await session.close();
    await session.close();
    expect(await errorCode(session.append(msg(user("u1", "late"))))).toBe("closed");
  });

  it("repairs a torn last record, reports it, and keeps every whole record", async () => {
    const s = await subject();
    if (!s.tearLastRecord) return; // this store cannot be torn
    const session = track(await s.store.create({ projectRoot: "/p" }));
    await session.append(msg(user("u1", "kept")));
    await session.close();
    await s.tearLastRecord(session.id);
    const opened = await (await reopened(s)).open(session.id);
    track(opened.session);
    expect(ids(opened.replay.workingSet)).toEqual(["u1"]);
    expect(opened.report.notices.length + opened.report.damage.length).toBeGreaterThan(0);
    await opened.session.append(msg(user("u2", "after")));
    await opened.session.close();
    const again = await (await reopened(s)).open(session.id);
    track(again.session);
    expect(ids(again.replay.workingSet)).toEqual(["u1", "u2"]);
    expect(again.report.notices).toEqual([]);
    expect(again.report.damage).toEqual([]);
  });
}
