import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { harnessEngineOptions } from "../hosts/engine-options.js";
import { createEngine } from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import { readLog } from "@z-engine/store";
import { createFixtureRepo } from "@z-engine/testkit";
import { CALLS_PER_TURN, SOAK_FILES, type SoakModel, soakModel } from "./model.js";

const MODEL = "claude-sonnet-5-5";

/** One sample of a soak: after `rounds` rounds, the heap (after a GC) and the recent round time. */
export interface SoakSample {
  readonly rounds: number;
  readonly heapMb: number;
  /** Mean ms per round since the previous sample. */
  readonly msPerRound: number;
  readonly compactions: number;
}

/** What a soak found. */
export interface SoakResult {
  readonly samples: SoakSample[];
  readonly rounds: number;
  readonly compactions: number;
  /** The round of the first compaction (the slope is measured from the sample after it). */
  readonly firstCompactionRound: number | undefined;
  /** Opening the session again in a new engine, in ms. */
  readonly resumeMs: number;
  /** Reading and parsing the whole log once (the baseline a resume must stay well under), in ms. */
  readonly readLogMs: number;
  readonly logRecords: number;
  /** Messages the first request after the resume sent (the working set it rebuilt). */
  readonly workingSet: number;
  /** Message records in the whole log. */
  readonly logMessages: number;
  /** Failures: a turn that did not complete, a resume that did not rebuild the working set. */
  readonly problems: string[];
}

/** A home, a project of {@link SOAK_FILES} small files, and a config with a 24k window. */
async function soakWorld() {
  const files: Record<string, string> = { "README.md": "A soak.\n" };
  const line = "a line of a file the soak reads again and again\n";
  for (let i = 1; i <= SOAK_FILES; i++) files[`files/f${i}.txt`] = `${i}\n${line.repeat(40)}`;
  const repo = await createFixtureRepo({ files });
  const home = await mkdtemp(join(tmpdir(), "zeng-soak-"));
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  };
  await mkdir(env.ZENGINE_CONFIG_HOME, { recursive: true });
  const models = { [MODEL]: { limit: { context: 24_000, output: 4_000 } } };
  await writeFile(join(env.ZENGINE_CONFIG_HOME, "models.json"), JSON.stringify(models));
  const dispose = async () => {
    await repo.dispose();
    await rm(home, { recursive: true, force: true });
  };
  return { repo, home, env, dispose };
}

type World = Awaited<ReturnType<typeof soakWorld>>;

function engineFor(world: World, model: SoakModel, onEvent: (e: EventEnvelope) => void) {
  return createEngine({
    ...harnessEngineOptions(resolvePaths(world.env), world.env, world.home, onEvent),
    settings: { model: { main: MODEL }, context: { compact_at_percent: 60 } },
    clientFactory: () => model,
  });
}

const heapMb = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

/**
 * The soak: one session of `rounds` model rounds (turns of {@link CALLS_PER_TURN} real Read
 * calls and an answer) over the file store, compacting as its small window fills; sampled
 * every `sampleEvery` rounds. Then the session is opened again in a new engine and timed
 * beside one read of the whole log. Run node with --expose-gc for exact heap figures.
 */
export async function runSoak(options: {
  rounds: number;
  sampleEvery: number;
  onSample?: (s: SoakSample) => void;
}): Promise<SoakResult> {
  const world = await soakWorld();
  const counts = { rounds: 0, compactions: 0, first: undefined as number | undefined };
  const engine = await engineFor(world, soakModel(world.repo.root), (e) => {
    if (e.event.type === "assistantStarted") counts.rounds++;
    if (e.event.type === "compacted") {
      counts.compactions++;
      counts.first ??= counts.rounds;
    }
  });
  const problems: string[] = [];
  const samples: SoakSample[] = [];
  try {
    const session = await engine.createSession(world.repo.root, { mode: "bypass", trusted: true });
    let last = { rounds: 0, at: performance.now() };
    for (let turn = 1; counts.rounds < options.rounds; turn++) {
      const summary = await session.run(`turn ${turn}: read the next files`);
      if (summary.outcome !== "completed") {
        problems.push(`turn ${turn} ended ${summary.outcome}: ${summary.reason}`);
        break;
      }
      if (counts.rounds - last.rounds < options.sampleEvery) continue;
      const now = performance.now();
      const sample = {
        rounds: counts.rounds,
        heapMb: heapMb(),
        msPerRound: (now - last.at) / (counts.rounds - last.rounds),
        compactions: counts.compactions,
      };
      samples.push(sample);
      options.onSample?.(sample);
      last = { rounds: counts.rounds, at: performance.now() };
    }
    const id = session.id;
    const logPath = session.logPath;
    await engine.shutdown();
    return {
      samples,
      ...counts,
      firstCompactionRound: counts.first,
      problems,
      ...(await timeResume(world, id, logPath, problems)),
    };
  } finally {
    await engine.shutdown().catch(() => {});
    await world.dispose();
  }
}

/**
 * Opens the session again in a new engine, timed beside one read of its whole log, and runs
 * one more turn: its first request must send the working set, not the log's history.
 */
async function timeResume(world: World, id: string, logPath: string, problems: string[]) {
  const t0 = performance.now();
  const log = await readLog(logPath);
  const readLogMs = performance.now() - t0;
  const logMessages = log.records.filter((r) => r.kind === "message").length;
  const model = soakModel(world.repo.root);
  const engine = await engineFor(world, model, () => {});
  try {
    const t1 = performance.now();
    const session = await engine.openSession(id, { mode: "bypass" });
    const resumeMs = performance.now() - t1;
    const after = await session.run("after the resume: read the next files");
    if (after.outcome !== "completed") problems.push(`the resumed turn ended ${after.outcome}`);
    const workingSet = model.lastMessages;
    if (workingSet === 0 || workingSet >= logMessages)
      problems.push(`the resumed request sent ${workingSet} of the log's ${logMessages} messages`);
    return { resumeMs, readLogMs, logRecords: log.records.length, logMessages, workingSet };
  } finally {
    await engine.shutdown();
  }
}
