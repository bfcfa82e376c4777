import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { harnessEngineOptions } from "../hosts/engine-options.js";
import { createEngine, type Engine } from "@z-engine/engine";
import { createModelClient } from "@z-engine/llm";
import type { EventEnvelope } from "@z-engine/protocol";
import {
  createFixtureRepo,
  type FixtureRepo,
  startFakeProvider,
  type WireFormat,
} from "@z-engine/testkit";
import { offersTools, wireShapeProblems } from "../wire/shape.js";
import { HAMMERED, manyModel } from "./model.js";

/** What one session of the crowd went through. */
export interface CrowdSession {
  readonly index: number;
  readonly hammered: boolean;
  /** Everything that did not hold (empty: the session was unaffected, or for the hammered one, recovered). */
  readonly problems: string[];
  /** Retries the session saw (`retrying` events). */
  readonly retries: number;
  readonly ms: number;
}

/** How the crowd runs. */
export interface CrowdOptions {
  readonly sessions: number;
  readonly steps: number;
  readonly format: WireFormat;
}

function engineFor(
  home: string,
  baseUrl: string,
  format: WireFormat,
  onEvent: (e: EventEnvelope) => void,
) {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };
  const paths = resolvePaths({
    ...env,
    ZENGINE_HOME: join(home, "data"),
    ZENGINE_CONFIG_HOME: join(home, "config"),
  });
  // Retry waits are taken at once (the clock is the harness's): the hammered session's
  // retries cost no real time, so a neighbour slowed by them would show a real defect.
  const sleep = async () => {};
  return createEngine({
    ...harnessEngineOptions(paths, env, home, onEvent),
    settings: { model: { main: "claude-sonnet-5-5" } },
    clientFactory: ({ model }) =>
      createModelClient(
        { kind: format, baseUrl, model, apiKey: "test-key", retry: { sleep } },
        { env, dataDir: paths.dataDir },
      ),
  });
}

/**
 * Many sessions at once in one engine (one process), each in its own project, each step a
 * real Bash side effect over the fake provider; session {@link HAMMERED} gets a fault on two
 * attempts in three. Every session's turns must complete, each side effect run once and every
 * request be well-formed; the others must see no retry at all.
 */
export async function runCrowd(options: CrowdOptions): Promise<CrowdSession[]> {
  const home = await mkdtemp(join(tmpdir(), "zeng-many-"));
  const effectsFileOf = (n: number) => join(home, `effects-${n}.log`);
  const provider = await startFakeProvider({ respond: manyModel({ effectsFileOf }) });
  const baseUrl =
    options.format === "anthropic" ? provider.anthropicBaseUrl : provider.openaiBaseUrl;
  const retries = new Map<string, number>();
  const engine: Engine = await engineFor(home, baseUrl, options.format, (e) => {
    if (e.event.type === "retrying") retries.set(e.sessionId, (retries.get(e.sessionId) ?? 0) + 1);
  });
  const repos: FixtureRepo[] = [];
  try {
    for (let i = 0; i < options.sessions; i++)
      repos.push(await createFixtureRepo({ files: { "README.md": `Session ${i}.\n` } }));
    const runs = repos.map(async (repo, index) => {
      const t0 = performance.now();
      const problems: string[] = [];
      const session = await engine.createSession(repo.root, { mode: "bypass", trusted: true });
      for (let step = 1; step <= options.steps; step++) {
        const summary = await session.run(`session ${index} step ${step}`);
        if (summary.outcome !== "completed")
          problems.push(`step ${step} ended ${summary.outcome}: ${summary.reason}`);
      }
      const effects = (await readFile(effectsFileOf(index), "utf8").catch(() => ""))
        .split("\n")
        .filter(Boolean);
      if (effects.length !== options.steps)
        problems.push(`${effects.length} side effects for ${options.steps} steps`);
      const seen = retries.get(session.id) ?? 0;
      const hammered = index === HAMMERED;
      if (!hammered && seen > 0) problems.push(`${seen} retries in a session nobody hammered`);
      if (hammered && seen === 0) problems.push("the hammered session saw no retry");
      return { index, hammered, problems, retries: seen, ms: performance.now() - t0 };
    });
    const results = await Promise.all(runs);
    const bad = provider.requests.filter(offersTools).flatMap(wireShapeProblems);
    if (bad.length > 0) results[0]?.problems.push(...bad.map((p) => `request: ${p}`));
    return results;
  } finally {
    await engine.shutdown().catch(() => {});
    await provider.close();
    for (const repo of repos) await repo.dispose();
    await rm(home, { recursive: true, force: true });
  }
}
