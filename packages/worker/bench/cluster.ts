// BENCH worker.cluster: 3 worker processes, N short sessions (one Bash call each), one worker
// SIGKILLed (and replaced) every few seconds. Every session must complete exactly once and no
// tool call may run twice. Needs a build (the workers run dist/test-support/worker-process.js).
//   pnpm --filter @z-engine/worker bench [-- --sessions 200 --kill-every-ms 3000]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPostgresStore } from "@z-engine/store-postgres";
import { Redis } from "ioredis";
import { startPostgres, startRedis } from "../../../scripts/test-services.mjs";
import { connectWorkerClient, type TurnJobResult, type WorkerEvent } from "../src/index.js";

const arg = (name: string, fallback: number) =>
  process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback;
const sessions = arg("--sessions", 200);
const killEvery = arg("--kill-every-ms", 3000);
const leaseMs = 1000;
const script = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "dist",
  "test-support",
  "worker-process.js",
);

const pgServer = await startPostgres();
const redisServer = await startRedis();
if (pgServer.url === null || redisServer.url === null) {
  console.log(`worker bench skipped: ${pgServer.reason ?? redisServer.reason}`);
  process.exit(0);
}
const workspace = await mkdtemp(join(tmpdir(), "zeng-cluster-"));
const config = {
  postgresUrl: pgServer.url,
  schema: "cluster",
  redis: redisServer.url,
  queue: "bench",
  workspaceRoot: workspace,
  leaseMs,
  lockDurationMs: leaseMs,
  concurrency: 8,
};
const store = await createPostgresStore({ connectionString: pgServer.url, schema: "cluster" });
let serial = 0;
const start = async () => {
  const name = `w${++serial}`;
  const child = spawn(process.execPath, [script, JSON.stringify({ ...config, name })], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [chunk] = (await once(child.stdout, "data")) as [Buffer];
  if (!chunk.toString().includes("ready")) throw new Error(`worker ${name} did not start`);
  return { name, child, exited: once(child, "exit") };
};
const workers = await Promise.all([start(), start(), start()]);
const client = await connectWorkerClient({ redis: redisServer.url, queue: "bench" });

// Sessions are created by the host on the shared store, each in its own project folder.
const ids: string[] = [];
for (let i = 0; i < sessions; i++) {
  const dir = join(workspace, `p${i}`);
  await mkdir(dir);
  const session = await store.create({ projectRoot: dir, mode: "bypass" });
  ids.push(session.id);
  await session.close();
}
const began = performance.now();
const jobs = await Promise.all(
  ids.map((id) => client.submit(id, "RUN: echo ran >> ledger.txt && sleep 0.5")),
);
const kills: number[] = [];
let done = false;
const killer = (async () => {
  while (!done) {
    await new Promise((r) => setTimeout(r, killEvery));
    if (done) break;
    const victim = workers.splice(Math.floor(Math.random() * workers.length), 1)[0];
    if (victim === undefined) continue;
    victim.child.kill("SIGKILL");
    kills.push(Date.now());
    await victim.exited;
    workers.push(await start());
  }
})();
const results = await Promise.all(jobs.map((j) => client.result(j.jobId).catch((e: Error) => e)));
const elapsed = (performance.now() - began) / 1000;
done = true;
await killer;

// Exactly once: one job result that completed, and one completed turn of that job in the log.
let once_ = 0;
let twice = 0;
let takeovers = 0;
const delays: number[] = [];
const redis = new Redis(redisServer.url);
for (const [i, id] of ids.entries()) {
  const result = results[i] as TurnJobResult | Error;
  const ledger = await readFile(join(workspace, `p${i}`, "ledger.txt"), "utf8").catch(() => "");
  const runs = ledger.split("\n").filter(Boolean).length;
  if (runs > 1) twice += runs - 1;
  const { replay, session } = await store.open(id);
  await session.close();
  const completed = replay.transcript.filter(
    (r) => r.kind === "turnEnded" && r.outcome === "completed",
  ).length;
  if (
    !(result instanceof Error) &&
    result.kind === "turn" &&
    result.outcome === "completed" &&
    completed === 1
  )
    once_++;
  const entries = (await redis.xrange(`zeng:bench:session-events:${id}`, "-", "+")) as [
    string,
    string[],
  ][];
  for (const [entryId, fields] of entries) {
    const event = JSON.parse(fields[1] ?? "{}") as WorkerEvent;
    if (event.type !== "opened" || !event.takeover) continue;
    takeovers++;
    const at = Number(entryId.split("-")[0]);
    const killedAt = kills.filter((k) => k <= at).at(-1);
    if (killedAt !== undefined) delays.push(Math.max(0, at - killedAt - leaseMs));
  }
}
delays.sort((a, b) => a - b);
const p = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? 0;
console.log(
  `workload: 3 worker processes (concurrency 8), ${sessions} sessions of one prompt each (one Bash call, 0.5 s), one worker SIGKILLed and replaced every ${killEvery} ms (${kills.length} kills, ${takeovers} takeovers); lease and job lock ${leaseMs} ms; takeover delay = takeover's open - kill - lease (an upper bound of the time after the lease ran out)`,
);
console.log(
  `BENCH worker.cluster ${(sessions / elapsed).toFixed(2)} sessions/s once=${once_} twice=${twice} takeover_p50=${p(0.5)}ms takeover_max=${p(1)}ms`,
);
await redis.quit();
await client.close();
for (const w of workers) w.child.kill("SIGKILL");
await Promise.all(workers.map((w) => w.exited));
await store.close();
await pgServer.stop();
await redisServer.stop();
await rm(workspace, { recursive: true, force: true });
