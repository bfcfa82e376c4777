import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { MessageId } from "@z-engine/protocol";
import { logRecord, type StoreError } from "@z-engine/store";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createPostgresStore, type PostgresSessionStore } from "./index.js";
import { codeOf, dropSchema, freshSchema, postgresUrl } from "./test-support/postgres.js";

const dist = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "index.js"));
const message = (id: string, text: string) =>
  logRecord("message", {
    message: { id: id as MessageId, role: "user", content: [{ type: "text", text }] },
  });

describe.skipIf(postgresUrl === null)("one writer per session across processes", () => {
  const url = postgresUrl ?? "";
  let schema = "";
  const stores: PostgresSessionStore[] = [];
  const store = async (leaseMs: number) => {
    const s = await createPostgresStore({ connectionString: url, schema, leaseMs, max: 2 });
    stores.push(s);
    return s;
  };
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await dropSchema(schema);
  });

  it("keeps a SIGKILLed writer's session until its lease runs out, then hands it over", async () => {
    schema = freshSchema();
    const first = await store(1500);
    const session = await first.create({ projectRoot: "/p" });
    await session.append(message("u1", "before the crash"));
    await session.close();
    // A real second process opens the session, appends, and is killed without closing.
    const script = `
      const { createPostgresStore, } = await import(${JSON.stringify(dist.href)});
      const store = await createPostgresStore({ connectionString: ${JSON.stringify(url)}, schema: ${JSON.stringify(schema)}, leaseMs: 1500 });
      const { session } = await store.open(${JSON.stringify(session.id)});
      await session.append({ kind: "message", v: 2, ts: Date.now(), message: { id: "u2", role: "user", content: [{ type: "text", text: "from the child" }] } });
      console.log("appended");
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [chunk] = (await once(child.stdout, "data")) as [Buffer];
    expect(chunk.toString()).toContain("appended");
    child.kill("SIGKILL");
    await once(child, "exit");
    const killedAt = Date.now();
    const other = await store(1500);
    expect(await codeOf(other.open(session.id))).toBe("locked");
    expect(await codeOf(other.delete(session.id))).toBe("locked");
    // Taken over once the lease ran out (the open retries on `locked`, as a worker does).
    let opened: Awaited<ReturnType<PostgresSessionStore["open"]>> | undefined;
    while (opened === undefined) {
      opened = await other.open(session.id).catch((e: StoreError) => {
        if (e.code !== "locked") throw e;
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 50));
      });
    }
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(1000);
    const ids = opened.replay.workingSet.map((m) => m.id);
    expect(ids).toEqual(["u1", "u2"]); // the child's acknowledged append survived its death
    await opened.session.close();
  });

  it("fences a writer whose lease was taken over: its appends reject with locked and never land", async () => {
    schema = freshSchema();
    const a = await store(60_000);
    const session = await a.create({ projectRoot: "/p" });
    await session.append(message("u1", "a's"));
    // The lease runs out (as for a writer stalled past it) and another store takes over.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `UPDATE "${schema}".zeng_sessions SET lease_expires = now() - interval '1 second'`,
    );
    await admin.end();
    const b = await store(60_000);
    const taken = await b.open(session.id);
    await taken.session.append(message("u2", "b's"));
    expect(await codeOf(session.append(message("u3", "a's, too late")))).toBe("locked");
    expect(await codeOf(session.append(message("u4", "a's, later still")))).toBe("locked");
    expect(session.workingSet().map((m) => m.id)).toEqual(["u1"]);
    await session.close(); // must not release b's lease
    expect(await codeOf(a.open(session.id))).toBe("locked");
    await taken.session.close();
    const { replay, session: last } = await a.open(session.id);
    expect(replay.workingSet.map((m) => m.id)).toEqual(["u1", "u2"]);
    await last.close();
  });
});
