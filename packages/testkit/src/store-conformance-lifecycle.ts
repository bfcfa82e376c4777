import { logRecord } from "@z-engine/store";
import { type Conformance, ids, msg, user } from "./store-conformance-support.js";

/** The store: listing, deleting, named ids and the one-open lock. */
export function registerStoreCases(c: Conformance): void {
  const { it, expect, subject, track, reopened, errorCode } = c;
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
}

/** One session: subagent transcripts, artifacts, closing and crash repair. */
export function registerSessionCases(c: Conformance): void {
  const { it, expect, subject, track, reopened, errorCode } = c;
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
