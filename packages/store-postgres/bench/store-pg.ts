// BENCH store.pg.append and store.pg.resume, each beside a bare `pg` baseline in the same run,
// on a Postgres server of their own with its durable defaults (fsync on).
//   pnpm --filter @z-engine/store-postgres bench [-- --only append|resume] [--resume-mb N]
import type { MessageId, ToolCallId } from "@z-engine/protocol";
import { logRecord } from "@z-engine/store";
import pg from "pg";
import { startPostgres } from "../../../scripts/test-services.mjs";
import { createPostgresStore, type PostgresSessionStore } from "../src/index.js";

const args = process.argv.slice(2);
const only = args[args.indexOf("--only") + 1];
const resumeMb = Number(
  args.includes("--resume-mb") ? args[args.indexOf("--resume-mb") + 1] : 1024,
);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const text = (bytes: number) => "x".repeat(bytes);
const message = (i: number, body: string) =>
  logRecord("message", {
    message: { id: `m${i}` as MessageId, role: "user", content: [{ type: "text", text: body }] },
  });
const line = (name: string, value: number, unit: string, base: number) =>
  console.log(
    `BENCH store.pg.${name} ${value.toFixed(0)} ${unit} baseline=${base.toFixed(0)} ratio=${(value / base).toFixed(2)}`,
  );

async function appendBench(store: PostgresSessionStore, pool: pg.Pool): Promise<void> {
  const body = text(1000);
  const n = 1000;
  const perSession = 100;
  const parallel = 50;
  await pool.query(
    "CREATE TABLE IF NOT EXISTS bare (session_id text, seq bigint, body text, PRIMARY KEY (session_id, seq))",
  );
  const ours: number[] = [];
  const bare: number[] = [];
  const ours50: number[] = [];
  const bare50: number[] = [];
  for (let run = 0; run < 4; run++) {
    // One session, appends awaited one by one, against single-row INSERTs awaited one by one.
    const session = await store.create({ projectRoot: "/p" });
    let t = performance.now();
    for (let i = 0; i < n; i++) await session.append(message(i, body));
    ours.push(n / ((performance.now() - t) / 1000));
    await session.close();
    t = performance.now();
    for (let i = 0; i < n; i++)
      await pool.query("INSERT INTO bare VALUES ($1, $2, $3)", [`one${run}`, i, body]);
    bare.push(n / ((performance.now() - t) / 1000));
    // 50 sessions at once, each awaiting its appends, against 50 such INSERT loops at once.
    const sessions = await Promise.all(
      Array.from({ length: parallel }, () => store.create({ projectRoot: "/p" })),
    );
    t = performance.now();
    await Promise.all(
      sessions.map(async (s) => {
        for (let i = 0; i < perSession; i++) await s.append(message(i, body));
      }),
    );
    ours50.push((parallel * perSession) / ((performance.now() - t) / 1000));
    await Promise.all(sessions.map((s) => s.close()));
    t = performance.now();
    await Promise.all(
      Array.from({ length: parallel }, async (_, k) => {
        for (let i = 0; i < perSession; i++)
          await pool.query("INSERT INTO bare VALUES ($1, $2, $3)", [`p${run}-${k}`, i, body]);
      }),
    );
    bare50.push((parallel * perSession) / ((performance.now() - t) / 1000));
  }
  console.log(
    `workload: 1 KiB message records; ${n} appends awaited one by one in one session, then ${parallel} sessions x ${perSession} at once (pool of 10); baseline: single-row INSERTs the same way; fsync on; median of 3 after a warm-up`,
  );
  const drop = <T>(xs: T[]) => xs.slice(1);
  line("append", median(drop(ours)), "appends/s", median(drop(bare)));
  line("append-50", median(drop(ours50)), "appends/s", median(drop(bare50)));
}

async function resumeBench(store: PostgresSessionStore, pool: pg.Pool): Promise<void> {
  // The replay mix of the file store's bench: tool calls with 64 KiB results, compacted every 600 records.
  const session = await store.create({ projectRoot: "/p", title: "big" });
  const result = text(64 * 1024);
  const total = Math.ceil((resumeMb * 1024 * 1024) / (result.length + 200));
  const pending: Promise<void>[] = [];
  let kept: string[] = [];
  for (let i = 0; i < total; i++) {
    const id = `call${i}` as ToolCallId;
    pending.push(
      session.append(
        logRecord("message", {
          message: {
            id: `r${i}` as MessageId,
            role: "user",
            content: [
              {
                type: "toolResult",
                toolUseId: id,
                content: [{ type: "text", text: result }],
                isError: false,
              },
            ],
          },
        }),
      ),
    );
    kept.push(`r${i}`);
    if (i % 600 === 599 && i < total - 300) {
      pending.push(
        session.append(
          logRecord("compaction", {
            compaction: {
              trigger: "auto",
              summary: {
                id: `s${i}` as MessageId,
                role: "user",
                content: [{ type: "text", text: "summary" }],
              },
              droppedMessageIds: kept as MessageId[],
              tokensBefore: 1,
              tokensAfter: 1,
            },
          }),
        ),
      );
      kept = [];
    }
    if (pending.length >= 200) await Promise.all(pending.splice(0));
  }
  await Promise.all(pending);
  await session.close();
  const { rows } = await pool.query("SELECT pg_total_relation_size('zeng_records') AS bytes");
  const opens: number[] = [];
  const reads: number[] = [];
  for (let run = 0; run < 6; run++) {
    let t = performance.now();
    const opened = await store.open(session.id);
    opens.push(performance.now() - t);
    await opened.session.close();
    t = performance.now();
    const point = await pool.query(
      "SELECT max(seq) AS s FROM zeng_records WHERE session_id = $1 AND kind = 'resumePoint'",
      [session.id],
    );
    const got = await pool.query(
      "SELECT body FROM zeng_records WHERE session_id = $1 AND agent_id = '' AND seq >= $2 ORDER BY seq",
      [session.id, point.rows[0].s],
    );
    const parsed = got.rows.map((r: { body: string }) => JSON.parse(r.body));
    reads.push(performance.now() - t);
    void parsed;
  }
  console.log(
    `workload: one session of ${total} records (64 KiB tool results, compacted every 600), ${(Number(rows[0].bytes) / 1e9).toFixed(2)} GB in zeng_records; open (lease, rows from the last resume point, fold) against a bare SELECT of the same rows with JSON.parse; median of 5 after a warm-up`,
  );
  line("resume", median(opens.slice(1)), "ms", median(reads.slice(1)));
}

const server = await startPostgres({ durable: true });
if (server.url === null) {
  console.log(`store-postgres bench skipped: ${server.reason}`);
  process.exit(0);
}
const store = await createPostgresStore({ connectionString: server.url });
const pool = new pg.Pool({ connectionString: server.url, max: 10 });
try {
  if (only === undefined || only === "append") await appendBench(store, pool);
  if (only === undefined || only === "resume") await resumeBench(store, pool);
} finally {
  await store.close();
  await pool.end();
  await server.stop();
}
