import type { TurnId } from "@z-engine/protocol";
import { type LogRecord, logRecord } from "@z-engine/store";
import {
  type Conformance,
  call,
  cid,
  ids,
  mid,
  msg,
  result,
  usage,
  user,
} from "./store-conformance-support.js";

/** Create, append and open: what goes in comes back, in order, and a bad record stays out. */
export function registerRoundTripCases(c: Conformance): void {
  const { it, expect, subject, track, reopened, errorCode } = c;
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
}

/** The working set and the resume report, the same live and replayed. */
export function registerWorkingSetCases(c: Conformance): void {
  const { it, expect, subject, track, reopened } = c;
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
}
