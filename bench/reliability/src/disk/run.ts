// One row of the full-disk suite, inside a private mount namespace as root (see suite.ts):
//   unshare -m node dist/disk/run.js <row index>
// Mounts the row's device as the data folder (a tiny tmpfs, or eio-fs), runs a session until
// the device fails, heals it, resumes the session in a new engine and runs the next step. Prints one JSON line:
// { name, problems } (empty problems: the row passed).
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
import { type Device, fillerOf, mountDevice } from "./device.js";
import { DISK_ROWS, type DiskRow } from "./rows.js";

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
  const device = await mountDevice(row.fault, home, dataDir);
  const filler = fillerOf(dataDir);
  const repo = await createFixtureRepo({ files: { "README.md": "A full disk.\n" } });
  const provider = await startFakeProvider({
    respond: (request) => row.respond(request, () => device.fail(), filler),
  });
  try {
    return await scenario(row, { home, dataDir, configDir, root: repo.root, provider, device });
  } finally {
    await provider.close();
    await repo.dispose();
    await device.unmount();
    await rm(home, { recursive: true, force: true });
  }
}

interface RowWorld {
  readonly home: string;
  readonly dataDir: string;
  readonly configDir: string;
  readonly root: string;
  readonly provider: Awaited<ReturnType<typeof startFakeProvider>>;
  readonly device: Device;
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

/** Step 1 meets the fault: the turn must end as the row says, and a notice must say why. */
async function failingStep(row: DiskRow, w: RowWorld, problems: string[]) {
  const acknowledged: EventEnvelope[] = [];
  const engine = await engineFor(w, acknowledged);
  const session = await engine.createSession(w.root, { mode: "bypass" });
  if (row.fillFirst) w.device.fail();
  const summary = await session
    // A long prompt: its record cannot fit in the slack of the log's last page either.
    .run(`step 1 ${"a long pasted prompt ".repeat(500)}`)
    .catch((e: Error) => ({ outcome: `threw ${e.message}`, reason: undefined }));
  const outcome = row.outcome ?? "failed";
  if (summary.outcome !== outcome)
    problems.push(`the turn ended ${summary.outcome}, not ${outcome}: ${summary.reason}`);
  if (outcome === "failed" && !row.says.test(summary.reason ?? ""))
    problems.push(`the failed reason does not match ${row.says}: ${summary.reason}`);
  if (!acknowledged.some((e) => e.event.type === "notice" && row.says.test(e.event.message)))
    problems.push(`no notice matched ${row.says}`);
  return { engine, session, acknowledged, reason: summary.reason };
}

async function scenario(row: DiskRow, w: RowWorld): Promise<RowOutcome> {
  const problems: string[] = [];
  const { engine, session, acknowledged, reason } = await failingStep(row, w, problems);
  if (row.live) {
    w.device.heal();
    const next = await session.run("step 2");
    if (next.outcome !== "completed")
      problems.push(`the healed session's turn ended ${next.outcome}: ${next.reason}`);
  }
  await engine
    .shutdown()
    .catch((e: Error) => problems.push(`shutdown on a failing disk threw: ${e.message}`));
  w.device.heal();
  const before = w.provider.requests.length;
  const second = await engineFor(w, []);
  try {
    const resumed = await second.openSession(session.id, { mode: "bypass" });
    const next = await resumed.run(row.live ? "step 3" : "step 2");
    if (next.outcome !== "completed")
      problems.push(`the resumed turn ended ${next.outcome}: ${next.reason}`);
  } catch (error) {
    problems.push(`resume once the disk is healthy failed: ${(error as Error).message}`);
  } finally {
    await second.shutdown();
  }
  const logs = await readFileSessionLogs(w.dataDir, session.id);
  problems.push(...logs.problems);
  // A notice that says the disk fails cannot be recorded on it: the engine emits it
  // live-only (it never rejects). Every other acknowledged record must be in the log.
  const recordable = acknowledged.filter((e) => e.event.type !== "notice");
  for (const e of lostRecords(recordable, logs.records))
    problems.push(`lost an acknowledged ${e.type}`);
  for (const request of w.provider.requests.slice(before))
    for (const p of wireShapeProblems(request)) problems.push(`resumed request: ${p}`);
  return { problems, reason };
}

const index = Number(process.argv[2]);
const row = DISK_ROWS[index];
if (row === undefined) throw new Error(`no disk row ${process.argv[2]}`);
const outcome = await runRow(row).catch((e: Error) => ({
  problems: [`the row threw: ${e.stack ?? e.message}`],
}));
process.stdout.write(`${JSON.stringify({ name: row.name, ...outcome })}\n`);
