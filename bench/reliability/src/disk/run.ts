// One row of the full-disk suite, inside a private mount namespace as root (see suite.ts):
//   unshare -m node dist/disk/run.js <row index>
// Mounts a tiny tmpfs as the data folder, runs a session until the disk fills, frees the
// space, resumes the session in a new engine and runs the next step. Prints one JSON line:
// { name, problems } (empty problems: the row passed).
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import { createFixtureRepo, startFakeProvider } from "@z-engine/testkit";
import { lostRecords } from "../crash/acknowledged.js";
import { readFileSessionLogs } from "../crash/logs.js";
import { wireShapeProblems } from "../wire/shape.js";
import { DISK_ROWS, type DiskRow, fillDisk, fillerOf, freeDisk } from "./rows.js";

/** What a reason or notice says when the disk is full. */
const FULL = /no space left|ENOSPC/i;

/** What a row found, and the failed turn's reason (the bench prints it). */
interface RowOutcome {
  readonly problems: string[];
  readonly reason?: string | undefined;
}

async function runRow(row: DiskRow): Promise<RowOutcome> {
  const home = await mkdtemp(join(tmpdir(), "zeng-disk-"));
  const dataDir = join(home, "data");
  const configDir = join(home, "config");
  await mkdir(dataDir, { recursive: true });
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, "settings.toml"), '[catalog]\nsource = "off"\n');
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dataDir]);
  const filler = fillerOf(dataDir);
  const repo = await createFixtureRepo({ files: { "README.md": "A full disk.\n" } });
  const provider = await startFakeProvider({
    respond: (request) => row.respond(request, () => fillDisk(filler), filler),
  });
  try {
    return await scenario(row, { home, dataDir, configDir, root: repo.root, provider, filler });
  } finally {
    await provider.close();
    await repo.dispose();
    execFileSync("umount", [dataDir]);
    await rm(home, { recursive: true, force: true });
  }
}

interface RowWorld {
  readonly home: string;
  readonly dataDir: string;
  readonly configDir: string;
  readonly root: string;
  readonly provider: Awaited<ReturnType<typeof startFakeProvider>>;
  readonly filler: string;
}

function engineFor(w: RowWorld, events: EventEnvelope[]) {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: w.home,
    ZENGINE_HOME: w.dataDir,
    ZENGINE_CONFIG_HOME: w.configDir,
    ZENGINE_PROVIDER: "anthropic",
    ZENGINE_BASE_URL: w.provider.anthropicBaseUrl,
    ZENGINE_API_KEY: "test-key",
    ZENGINE_MODEL: "claude-sonnet-5-5",
  };
  return createEngine({
    paths: resolvePaths(env),
    env,
    headless: true,
    catalogSource: "settings",
    onEvent: (e) => events.push(e),
  });
}

async function scenario(row: DiskRow, w: RowWorld): Promise<RowOutcome> {
  const problems: string[] = [];
  const acknowledged: EventEnvelope[] = [];
  const first = await engineFor(w, acknowledged);
  const session = await first.createSession(w.root, { mode: "bypass" });
  if (row.fillFirst) fillDisk(w.filler);
  const summary = await session
    // A long prompt: its record cannot fit in the slack of the log's last page either.
    .run(`step 1 ${"a long pasted prompt ".repeat(500)}`)
    .catch((e: Error) => ({ outcome: `threw ${e.message}`, reason: undefined }));
  if (summary.outcome !== "failed")
    problems.push(`the full turn ended ${summary.outcome}, not failed`);
  if (!FULL.test(summary.reason ?? ""))
    problems.push(`the failed reason does not say the disk is full: ${summary.reason}`);
  if (!acknowledged.some((e) => e.event.type === "notice" && FULL.test(e.event.message)))
    problems.push("no notice said the disk is full");
  await first
    .shutdown()
    .catch((e: Error) => problems.push(`shutdown on a full disk threw: ${e.message}`));
  freeDisk(w.filler);
  const before = w.provider.requests.length;
  const second = await engineFor(w, []);
  try {
    const resumed = await second.openSession(session.id, { mode: "bypass" });
    const next = await resumed.run("step 2");
    if (next.outcome !== "completed")
      problems.push(`the resumed turn ended ${next.outcome}: ${next.reason}`);
  } catch (error) {
    problems.push(`resume once space is back failed: ${(error as Error).message}`);
  } finally {
    await second.shutdown();
  }
  const logs = await readFileSessionLogs(w.dataDir, session.id);
  problems.push(...logs.problems);
  // The notice that says the disk is full cannot be recorded on it: the engine emits it
  // live-only (it never rejects). Every other acknowledged record must be in the log.
  const recordable = acknowledged.filter((e) => e.event.type !== "notice");
  for (const e of lostRecords(recordable, logs.records))
    problems.push(`lost an acknowledged ${e.type}`);
  for (const request of w.provider.requests.slice(before))
    for (const p of wireShapeProblems(request)) problems.push(`resumed request: ${p}`);
  return { problems, reason: summary.reason };
}

const index = Number(process.argv[2]);
const row = DISK_ROWS[index];
if (row === undefined) throw new Error(`no disk row ${process.argv[2]}`);
const outcome = await runRow(row).catch((e: Error) => ({
  problems: [`the row threw: ${e.stack ?? e.message}`],
}));
process.stdout.write(`${JSON.stringify({ name: row.name, ...outcome })}\n`);
