import type { WireFormat } from "@z-engine/testkit";
import { envelopesOf, lostRecords } from "./acknowledged.js";
import type { Driver } from "./drivers.js";
import { CRASH_KINDS, type CrashKind } from "./model.js";
import type { HostProcess } from "./process.js";
import { COUNT, DELAY_MS, triggerOf } from "./trigger.js";
import { type CrashWorld, crashWorld } from "./world.js";
import { carriesSummary, mixedHistories } from "./history.js";
import { offersTools, wireShapeProblems } from "../wire/shape.js";

/** What one kill found. */
export interface KillResult {
  readonly kind: CrashKind;
  readonly format: WireFormat;
  /** True when the kill landed before the run ended on its own. */
  readonly landed: boolean;
  /** Everything that did not hold (empty: the session survived). */
  readonly problems: string[];
  /** Acknowledged records missing from the log. */
  readonly lost: number;
  /** Side effects that ran more than once. */
  readonly twice: number;
}

/** How a fuzz run goes. */
export interface FuzzOptions {
  readonly kills: number;
  readonly driver: Driver;
  /** Kills per world before a fresh one (a chain resumes the same session again and again). */
  readonly chain?: number;
  readonly random?: () => number;
  /** The kinds to cycle through (default: all of them). */
  readonly kinds?: readonly CrashKind[];
  /** Alternate the wire format every world (default: every cycle through the kinds). */
  readonly alternate?: boolean;
  readonly onKill?: (result: KillResult) => void;
}

const sessionOf = (run: HostProcess): string | undefined => envelopesOf(run.lines)[0]?.sessionId;

/** Resolves once the `count`th line `test` accepts is in (or the run is over). */
async function waitForNth(
  run: HostProcess,
  test: (line: string) => boolean,
  count: number,
): Promise<void> {
  let from = 0;
  for (let n = 0; n < count; n++) {
    const at = await run.waitForLine(test, from);
    if (at === -1) return;
    from = at + 1;
  }
}

/** Kills one run at the kind's moment; resolves with whether the kill landed. */
async function killAtMoment(
  world: CrashWorld,
  run: HostProcess,
  random: () => number,
): Promise<boolean> {
  const trigger = triggerOf(world.kind);
  const summary = new Promise<void>((resolve) => {
    world.onSummary = resolve;
  });
  const count = 1 + Math.floor(random() * (COUNT[world.kind] ?? 1));
  const moment = waitForNth(run, (line) => envelopesOf([line]).some(trigger), count);
  await Promise.race([moment, world.kind === "compaction" ? summary : moment]);
  world.onSummary = undefined;
  const delay = Math.floor(random() * DELAY_MS[world.kind]);
  await Promise.race([new Promise((r) => setTimeout(r, delay)), run.exited]);
  const landed = !run.done;
  await run.kill();
  return landed;
}

/** A compaction record carries its ledger (what it dropped and kept) in the same line. */
const hasLedger = (r: Record<string, unknown>): boolean => {
  const c = r.compaction;
  return (
    typeof c === "object" &&
    c !== null &&
    "ledger" in c &&
    typeof c.ledger === "object" &&
    c.ledger !== null
  );
};

/**
 * Every request the session sent (the killed runs' too) is one state its log passed through:
 * a compaction applies whole or not at all (a subagent's requests hold its own history, which
 * its log folds apart). The compaction kind's log must hold a compaction, with its ledger.
 */
function historyProblems(world: CrashWorld, records: readonly Record<string, unknown>[]): string[] {
  const problems =
    world.kind === "subagent" ? [] : mixedHistories(records, world.provider.requests);
  if (world.kind !== "compaction") return problems;
  const compactions = records.filter((r) => r.kind === "compaction");
  if (compactions.length === 0)
    problems.push("no compaction was recorded (the compaction kind must compact)");
  else if (!compactions.every(hasLedger))
    problems.push("a compaction was recorded without its ledger");
  if (!world.provider.requests.some((r) => offersTools(r) && carriesSummary(r)))
    problems.push("no request carried a compaction summary");
  return problems;
}

/** Checks a session after a kill and one resumed run that is left to finish. */
async function checkAfter(
  world: CrashWorld,
  driver: Driver,
  killed: HostProcess,
  id: string,
  step: number,
): Promise<Omit<KillResult, "kind" | "format" | "landed">> {
  const problems: string[] = [];
  const before = world.provider.requests.length;
  const resumed = driver.start(world, `step ${step}`, id);
  const exit = await resumed.exited;
  if (exit.code !== 0)
    problems.push(`resume exited ${exit.code ?? exit.signal}: ${resumed.stderr.slice(-400)}`);
  const logs = await driver.logs(world, id);
  problems.push(...logs.problems);
  const lost = lostRecords(envelopesOf(killed.lines), logs.records);
  for (const event of lost) problems.push(`lost an acknowledged ${event.type}`);
  for (const request of world.provider.requests.slice(before))
    for (const p of wireShapeProblems(request)) problems.push(`resumed request: ${p}`);
  problems.push(...historyProblems(world, logs.records));
  const effects = await world.effects();
  const twice = effects.length - new Set(effects).size;
  if (twice > 0) problems.push(`${twice} side effects ran twice`);
  return { problems, lost: lost.length, twice };
}

/** One kill in a world: a run of `step N`, killed at the kind's moment, then resumed. */
async function oneKill(
  world: CrashWorld,
  driver: Driver,
  state: { id: string | undefined; step: number },
  random: () => number,
): Promise<KillResult> {
  state.step++;
  const run = driver.start(world, `step ${state.step}`, state.id);
  const landed = await killAtMoment(world, run, random);
  const id = state.id ?? sessionOf(run);
  const base = { kind: world.kind, format: world.format, landed };
  if (id === undefined)
    return {
      ...base,
      problems: [`no session id reached stdout: ${run.stderr.slice(-400)}`],
      lost: 0,
      twice: 0,
    };
  state.id = id;
  state.step++;
  return { ...base, ...(await checkAfter(world, driver, run, id, state.step)) };
}

/**
 * The crash fuzz: `kills` SIGKILLs of real runs, cycling through the kinds and both wire
 * formats, each followed by a resumed run that must open the session, send well-formed
 * requests and finish, with every acknowledged record in a log that verifies and no side
 * effect run twice.
 */
export async function runCrashFuzz(options: FuzzOptions): Promise<KillResult[]> {
  const random = options.random ?? Math.random;
  const chain = options.chain ?? 3;
  const kinds = options.kinds ?? CRASH_KINDS;
  const results: KillResult[] = [];
  for (let world = 0; results.length < options.kills; world++) {
    const kind = kinds[world % kinds.length] ?? "append";
    const cycle = options.alternate ? world : Math.floor(world / kinds.length);
    const format: WireFormat = cycle % 2 === 0 ? "anthropic" : "openai";
    const w = await crashWorld(kind, format);
    try {
      const state = { id: undefined as string | undefined, step: 0 };
      for (let k = 0; k < chain && results.length < options.kills; k++) {
        const result = await oneKill(w, options.driver, state, random);
        results.push(result);
        options.onKill?.(result);
      }
    } finally {
      await w.dispose();
    }
  }
  return results;
}
