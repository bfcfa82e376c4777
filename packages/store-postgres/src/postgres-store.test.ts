import type { Message, MessageId } from "@z-engine/protocol";
import { logRecord } from "@z-engine/store";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  createPostgresStore,
  migrate,
  type PostgresSessionStore,
  SCHEMA_VERSION,
} from "./index.js";
import { codeOf, dropSchema, freshSchema, postgresUrl } from "./test-support/postgres.js";

const user = (id: string, text: string): Message => ({
  id: id as MessageId,
  role: "user",
  content: [{ type: "text", text }],
});
const message = (id: string, text: string) => logRecord("message", { message: user(id, text) });
const compaction = (summaryId: string, dropped: string[]) =>
  logRecord("compaction", {
    compaction: {
      trigger: "auto",
      summary: user(summaryId, `summary of ${dropped.join(", ")}`),
      droppedMessageIds: dropped as MessageId[],
      tokensBefore: 10,
      tokensAfter: 5,
    },
  });

describe.skipIf(postgresUrl === null)("PostgresSessionStore", () => {
  const url = postgresUrl ?? "";
  let schema = "";
  const stores: PostgresSessionStore[] = [];
  const clients: pg.Client[] = [];
  const store = async () => {
    schema ||= freshSchema();
    const s = await createPostgresStore({ connectionString: url, schema, max: 3 });
    stores.push(s);
    return s;
  };
  const sql = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url });
    clients.push(client);
    await client.connect();
    return client.query(text.replaceAll("S.", `"${schema}".`), values);
  };
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    for (const c of clients.splice(0)) await c.end();
    if (schema !== "") await dropSchema(schema);
    schema = "";
  });

  it("acknowledges an append once another connection can read it", async () => {
    const s = await store();
    const session = await s.create({ projectRoot: "/p" });
    await session.append(message("u1", "hello"));
    const { rows } = await sql(
      "SELECT body FROM S.zeng_records WHERE session_id = $1 AND kind = 'message'",
      [session.id],
    );
    expect(rows.map((r) => JSON.parse(r.body).message.id)).toEqual(["u1"]);
  });

  it("writes many unawaited appends in order, in fewer statements than appends", async () => {
    schema = freshSchema();
    const pool = new pg.Pool({ connectionString: url, max: 3 });
    let appends = 0;
    const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
    (pool as unknown as { query: unknown }).query = (...args: unknown[]) => {
      if (
        typeof args[0] === "string" &&
        args[0].includes("INSERT INTO") &&
        args[0].includes("zeng_records")
      )
        appends++;
      return query(...args);
    };
    const s = await createPostgresStore({ pool, schema });
    try {
      const session = await s.create({ projectRoot: "/p" });
      appends = 0;
      const ids = Array.from({ length: 200 }, (_, i) => `u${i}`);
      await Promise.all(ids.map((id) => session.append(message(id, id))));
      expect(session.workingSet().map((m) => m.id)).toEqual(ids);
      expect(appends).toBeLessThan(20);
      const { rows } = await sql(
        "SELECT body FROM S.zeng_records WHERE session_id = $1 AND kind = 'message' ORDER BY seq",
        [session.id],
      );
      expect(rows.map((r) => JSON.parse(r.body).message.id)).toEqual(ids);
      await session.close();
    } finally {
      await s.close();
      await pool.end();
    }
  });

  it("rejects an append the database refuses, folds none of it, and goes on", async () => {
    const s = await store();
    const session = await s.create({ projectRoot: "/p" });
    await sql(
      "ALTER TABLE S.zeng_records ADD CONSTRAINT no_poison CHECK (body NOT LIKE '%poison%')",
    );
    await session.append(message("u1", "fine"));
    expect(await codeOf(session.append(message("u2", "poison")))).toBe("appendFailed");
    expect(session.workingSet().map((m) => m.id)).toEqual(["u1"]);
    await session.append(message("u3", "fine again"));
    await session.close();
    const { replay, session: again } = await s.open(session.id);
    expect(replay.workingSet.map((m) => m.id)).toEqual(["u1", "u3"]);
    await again.close();
  });

  it("opens from the last resume point, reading only the rows from there", async () => {
    const s = await store();
    const session = await s.create({ projectRoot: "/p", title: "long" });
    for (let i = 0; i < 50; i++) await session.append(message(`old${i}`, "x".repeat(100)));
    await session.append(
      compaction(
        "s1",
        Array.from({ length: 50 }, (_, i) => `old${i}`),
      ),
    );
    await session.append(message("new1", "after"));
    const live = session.workingSet();
    await session.close();
    const opened = await s.open(session.id);
    expect(opened.report.resumePoint).not.toBeNull();
    expect(opened.replay.earlierHistory).toBe(true);
    expect(JSON.stringify(opened.replay.workingSet)).toBe(JSON.stringify(live));
    expect(opened.replay.state.title).toBe("long");
    // The rows before the point are not read: damage there goes unseen.
    await sql("UPDATE S.zeng_records SET body = 'not json' WHERE session_id = $1 AND seq = 3", [
      opened.session.id,
    ]);
    await opened.session.close();
    const again = await s.open(session.id);
    expect(again.report.damage).toEqual([]);
    expect((await again.session.transcript()).length).toBeGreaterThan(50);
    await again.session.close();
  });

  it("folds the whole log when a rewind reaches before the resume point", async () => {
    const s = await store();
    const session = await s.create({ projectRoot: "/p" });
    await session.append(message("u1", "first"));
    await session.append(message("u2", "second"));
    await session.append(compaction("s1", ["u1"]));
    await session.append(message("u3", "third"));
    const rewind = logRecord("rewind", {
      messageId: "u2" as MessageId,
      restore: "conversation",
      restoredPaths: [],
      unstorable: [],
    });
    await session.append(rewind);
    const live = session.workingSet().map((m) => m.id);
    expect(live).toEqual(["u1"]); // as before u2: the history before the resume point, folded again
    await session.close();
    const { replay, session: again } = await s.open(session.id);
    expect(replay.workingSet.map((m) => m.id)).toEqual(live);
    await again.close();
  });

  it("reports a damaged row by its seq and keeps the rest", async () => {
    const s = await store();
    const session = await s.create({ projectRoot: "/p" });
    await session.append(message("u1", "kept"));
    await session.append(message("u2", "damaged"));
    await session.append(message("u3", "kept too"));
    await session.close();
    const { rows } = await sql(
      "UPDATE S.zeng_records SET body = '{\"kind\":\"message\"' WHERE session_id = $1 AND body LIKE '%damaged%' RETURNING seq",
      [session.id],
    );
    const opened = await s.open(session.id);
    expect(opened.replay.workingSet.map((m) => m.id)).toEqual(["u1", "u3"]);
    expect(opened.report.damage.map((d) => d.line)).toEqual([Number(rows[0].seq)]);
    await opened.session.close();
  });

  it("rebuilds a stale chat-list entry on open, and lists a never-synced session from its log", async () => {
    const s = await store();
    const session = await s.create({ projectRoot: "/p", title: "before" });
    await session.append(logRecord("title", { title: "after" }));
    await session.sync();
    await sql("UPDATE S.zeng_sessions SET meta = NULL, meta_seq = -1");
    expect((await s.list())[0]?.title).toBe("after");
    await session.close();
    await sql("UPDATE S.zeng_sessions SET meta_seq = 0");
    const opened = await s.open(session.id);
    expect(opened.report.metaRebuilt).toBe(true);
    await opened.session.close();
    expect((await s.list())[0]).toMatchObject({
      title: "after",
      projectRoot: "/p",
      source: "folder",
    });
  });

  it("keeps artifacts as rows: binary intact, long data cut, gone with the session", async () => {
    schema = freshSchema();
    const s = await createPostgresStore({ connectionString: url, schema, artifactMaxBytes: 8 });
    stores.push(s);
    const session = await s.create({ projectRoot: "/p" });
    const bytes = new Uint8Array([0, 255, 1, 254]);
    const binary = await session.artifacts.put("../../etc/passwd", bytes);
    expect(binary.ref).toMatch(/^artifact:[0-9a-f-]{36}$/);
    expect(await session.artifacts.read(binary.ref)).toEqual(bytes);
    const long = await session.artifacts.put("out.txt", "ééééé"); // 10 bytes: cut at a character
    expect(long).toMatchObject({ bytes: 8, truncated: true });
    expect(new TextDecoder().decode(await session.artifacts.read(long.ref))).toBe("éééé");
    expect(await session.artifacts.read("artifact:' OR 1=1 --")).toBeUndefined();
    await session.close();
    await s.delete(session.id);
    expect((await sql("SELECT count(*)::int AS n FROM S.zeng_artifacts")).rows[0].n).toBe(0);
  });

  it("migrates once when several processes start together, and refuses an unsafe schema name", async () => {
    schema = freshSchema();
    const pool = new pg.Pool({ connectionString: url, max: 6 });
    try {
      const versions = await Promise.all([1, 2, 3, 4].map(() => migrate(pool, schema)));
      expect(versions).toEqual([SCHEMA_VERSION, SCHEMA_VERSION, SCHEMA_VERSION, SCHEMA_VERSION]);
      const { rows } = await pool.query(`SELECT version FROM "${schema}".zeng_migrations`);
      expect(rows).toEqual([{ version: 1 }]);
      // A host's own pool: the store uses it and leaves it open.
      const s = await createPostgresStore({ pool, schema });
      await (await s.create({ projectRoot: "/p" })).close();
      await s.close();
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
    expect(
      await codeOf(createPostgresStore({ connectionString: url, schema: 'x"; DROP TABLE y; --' })),
    ).toBe("io");
  });

  it("fails to start with io when the database cannot be reached", async () => {
    const dead = "postgres://postgres@127.0.0.1:1/postgres";
    expect(await codeOf(createPostgresStore({ connectionString: dead }))).toBe("io");
  });
});
