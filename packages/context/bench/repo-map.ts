// Benchmarks the repo map (design.md §7) on a real codebase from the registry: the 3,342
// TypeScript sources of @babylonjs/core, recovered from its source maps (repo-map-source.ts).
// Builds run as the engine runs them: RepoMapBuilder with its worker thread (the compiled
// worker in dist/: run `pnpm build` first; the root `pnpm bench` does).
//   context.repomap.cold        index + rank + render with an empty cache (new worker each),
//                               beside its floor: bare web-tree-sitter parsing the same files
//                               on as many threads (repo-map-floor.ts)
//   context.repomap.tags_floor  that floor with the map's per-file work (parse + tag query)
//   context.repomap.warm        the rebuild after one file changed
//   context.repomap.restart     a new worker over the cache file the cold build wrote
//   context.repomap.memory      peak RSS of a plain node process that builds the map cold (median of 3)
//   context.repomap.main_stall  the session thread's longest event-loop stall while the map
//                               builds, beside the same build on that thread (8 ms slices)
//   context.repomap.recall      quality: see quality() below
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir, uptime } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import {
  mapTokens,
  RepoIndex,
  type RepoMapBuilderOptions,
  renderRepoMap,
  RepoMapBuilder,
} from "../src/index.js";
import { type FloorMode, type FloorRun, parseFloor } from "./repo-map-floor.js";
import { SOURCE_PACKAGE, writeSources } from "./repo-map-source.js";

const BUDGET = 1000;
const WORKER = new URL("../dist/repo-map/repo-map-worker.js", import.meta.url);
const DIST = new URL("../dist/index.js", import.meta.url);

const median = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const cpuMs = () => {
  const u = process.cpuUsage(); // the whole process: the worker and parser threads included
  return (u.user + u.system) / 1000;
};

interface Timing {
  readonly wall: number;
  readonly cpu: number;
  /** The longest event-loop stall of this thread during the build, in ms. */
  readonly stall: number;
}

async function timed(builder: RepoMapBuilder, paths: string[]): Promise<Timing> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const cpu = cpuMs();
  await builder.build({ paths, tokens: BUDGET });
  const timing = { wall: performance.now() - started, cpu: cpuMs() - cpu, stall: delay.max / 1e6 };
  delay.disable();
  await builder.whenSaved();
  return timing;
}

function builder(root: string, cacheFile: string, script: URL | null): RepoMapBuilder {
  const options: RepoMapBuilderOptions = { root, cacheFile, script, workerFrom: 0 };
  return new RepoMapBuilder(options);
}

async function speed(root: string, paths: string[], data: string): Promise<void> {
  const colds: Timing[] = [];
  for (let i = 0; i < 3; i++) {
    const b = builder(root, join(data, `cold-${i}.json`), WORKER);
    colds.push(await timed(b, paths));
    await b.close();
  }
  // The floor, in the same minutes: the threads the build parses on (the cores, at most 4).
  const threads = Math.min(availableParallelism(), 4);
  const floors = new Map<FloorMode, FloorRun[]>([
    ["parse", []],
    ["tags", []],
  ]);
  for (let i = 0; i < 3; i++)
    for (const [mode, runs] of floors) runs.push(await parseFloor(root, paths, threads, mode));
  const here = builder(root, join(data, "here.json"), null);
  const onMain = await timed(here, paths);
  await here.close();
  const warmBuilder = builder(root, join(data, "cold-2.json"), WORKER);
  await timed(warmBuilder, paths); // the worker starts and loads the cache
  const victim = paths[Math.floor(paths.length / 2)] as string;
  const warms: Timing[] = [];
  for (let i = 0; i < 7; i++) {
    await writeFile(join(root, victim), `export function benchEdit${i}(): void {}\n`);
    warms.push(await timed(warmBuilder, paths));
  }
  await warmBuilder.close();
  const restartBuilder = builder(root, join(data, "cold-2.json"), WORKER);
  const restart = await timed(restartBuilder, paths);
  await restartBuilder.close();
  // Peak RSS moves by some 10 MB from run to run (when the threads' collectors run): median of 3.
  const memories: Array<{ before: number; peak: number }> = [];
  for (let i = 0; i < 3; i++) memories.push(await memoryOfColdBuild(root, paths, data, i));
  const peaks = memories.map((m) => m.peak).sort((a, b) => a - b);
  const memory = { before: median(memories.map((m) => m.before)), peak: median(peaks) };
  const bytes = (await Promise.all(paths.map((p) => stat(join(root, p))))).reduce(
    (sum, s) => sum + s.size,
    0,
  );
  const wall = (xs: ReadonlyArray<{ wall: number }>) => median(xs.map((x) => x.wall));
  const cpu = (xs: ReadonlyArray<{ cpu: number }>) => median(xs.map((x) => x.cpu));
  const load = loadavg()[0]?.toFixed(1);
  const parseFloorRuns = floors.get("parse") ?? [];
  const tagsFloorRuns = floors.get("tags") ?? [];
  console.log(
    `workload: @babylonjs/core TypeScript sources (from its source maps), ${paths.length} .ts files, ${(bytes / 1e6).toFixed(1)} MB; RepoMapBuilder: a worker thread handing out files to ${threads > 1 ? threads : 0} parser threads, index + rank + render ${BUDGET} tokens (paths given; the engine lists them with git first); cold = empty cache, new worker (median of 3), warm = rebuild after one file changed (median of 7), restart = new worker over the cache file; _cpu = CPU time of the whole process (all threads); baseline = the floor: bare web-tree-sitter parsing the same files on ${threads} threads (grammar loaded as the map does, files taken one at a time; median of 3); load average ${load} on ${availableParallelism()} cores (uptime ${(uptime() / 60).toFixed(0)} min)`,
  );
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : "inf");
  const coldWall = wall(colds);
  const coldCpu = cpu(colds);
  const floorWall = wall(parseFloorRuns);
  const floorCpu = cpu(parseFloorRuns);
  console.log(
    `BENCH context.repomap.cold ${coldWall.toFixed(0)} ms baseline=${floorWall.toFixed(0)} ratio=${ratio(coldWall, floorWall)}`,
  );
  console.log(
    `BENCH context.repomap.cold_cpu ${coldCpu.toFixed(0)} ms baseline=${floorCpu.toFixed(0)} ratio=${ratio(coldCpu, floorCpu)}`,
  );
  console.log(
    `workload: the floor with the map's per-file work: the same threads run extractTags (parse, tag query, tags) on each file, nothing else (median of 3); load average ${load}`,
  );
  console.log(`BENCH context.repomap.tags_floor ${wall(tagsFloorRuns).toFixed(0)} ms`);
  console.log(`BENCH context.repomap.tags_floor_cpu ${cpu(tagsFloorRuns).toFixed(0)} ms`);
  console.log(`BENCH context.repomap.warm ${wall(warms).toFixed(1)} ms`);
  console.log(`BENCH context.repomap.warm_cpu ${cpu(warms).toFixed(1)} ms`);
  console.log(`BENCH context.repomap.restart ${restart.wall.toFixed(0)} ms`);
  console.log(
    `workload: peak RSS of a plain node process (no tsx) that imports context and builds the map cold in its worker, median of 3 (${peaks.map((p) => p.toFixed(0)).join(", ")} MB); baseline = its RSS before the build`,
  );
  console.log(
    `BENCH context.repomap.memory ${memory.peak.toFixed(0)} MB baseline=${memory.before.toFixed(0)} ratio=${(memory.peak / memory.before).toFixed(2)}`,
  );
  console.log(
    `workload: longest event-loop stall of the session's thread during a cold build (monitorEventLoopDelay, 1 ms resolution; on a loaded machine the OS's scheduling shows in both); baseline = the same build on that thread in 8 ms slices (wall ${onMain.wall.toFixed(0)} ms)`,
  );
  const stall = median(colds.map((c) => c.stall));
  console.log(
    `BENCH context.repomap.main_stall ${stall.toFixed(1)} ms baseline=${onMain.stall.toFixed(1)} ratio=${(stall / onMain.stall).toFixed(2)}`,
  );
}

const CHILD = `
const [dist, pathsFile, root, cacheFile, worker] = process.argv.slice(2);
const { readFileSync } = await import("node:fs");
const { RepoMapBuilder } = await import(dist);
const paths = JSON.parse(readFileSync(pathsFile, "utf8"));
const before = process.memoryUsage().rss;
const b = new RepoMapBuilder({ root, cacheFile, script: new URL(worker), workerFrom: 0 });
await b.build({ paths, tokens: ${BUDGET} });
await b.whenSaved();
console.log(JSON.stringify({ before: before / 1e6, peak: process.resourceUsage().maxRSS / 1024 }));
await b.close();
`;

async function memoryOfColdBuild(
  root: string,
  paths: string[],
  data: string,
  run: number,
): Promise<{ before: number; peak: number }> {
  const pathsFile = join(data, "paths.json");
  await writeFile(pathsFile, JSON.stringify(paths));
  const script = join(data, "memory-child.mjs");
  await writeFile(script, CHILD);
  const args = [DIST.href, pathsFile, root, join(data, `memory-${run}.json`), WORKER.href];
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [script, ...args],
      { maxBuffer: 1 << 20 },
      (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
    ),
  );
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { before: number; peak: number };
}

/**
 * 50 names, each defined in exactly one file and referenced from at least three others,
 * longer than three characters, taken evenly from their sorted list (deterministic).
 */
function questions(files: RepoIndex["files"]): Array<{ name: string; file: string }> {
  const definers = new Map<string, Set<string>>();
  const users = new Map<string, number>();
  for (const [path, tags] of files) {
    for (const d of tags.defs) definers.set(d.name, (definers.get(d.name) ?? new Set()).add(path));
  }
  for (const [path, tags] of files) {
    for (const name of Object.keys(tags.refs)) {
      const home = definers.get(name);
      if (home && !home.has(path)) users.set(name, (users.get(name) ?? 0) + 1);
    }
  }
  const candidates = [...definers]
    .filter(([name, home]) => home.size === 1 && (users.get(name) ?? 0) >= 3 && name.length > 3)
    .map(([name, home]) => ({ name, file: [...home][0] as string }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const step = candidates.length / 50;
  return Array.from({ length: 50 }, (_, i) => candidates[Math.floor(i * step)]).filter(
    (q): q is { name: string; file: string } => q !== undefined,
  );
}

/** The baseline: file paths, largest first, as many as fit the same budget. */
async function largestFiles(root: string, paths: string[]): Promise<Set<string>> {
  const sizes = await Promise.all(
    paths.map(async (p) => ({ p, s: (await stat(join(root, p))).size })),
  );
  sizes.sort((a, b) => b.s - a.s || (a.p < b.p ? -1 : 1));
  const listed: string[] = [];
  for (const { p } of sizes) {
    if (mapTokens([...listed, p].join("\n")) > BUDGET) break;
    listed.push(p);
  }
  return new Set(listed);
}

/**
 * For each question "Where is NAME defined?", the map personalised by that text (as the
 * engine focuses it on the user's prompt) is scored on whether it lists the defining file
 * (recall); beside it, the unpersonalised map and a list of the largest files, same budget.
 */
async function quality(root: string, paths: string[], cacheFile: string): Promise<void> {
  const index = new RepoIndex({ root, cacheFile });
  await index.update(paths);
  const asked = questions(index.files);
  const baseline = await largestFiles(root, paths);
  const general = renderRepoMap(index.files, { tokens: BUDGET }).text;
  let hits = 0;
  let generalHits = 0;
  let baselineHits = 0;
  for (const q of asked) {
    const focus = { text: `Where is ${q.name} defined?` };
    const map = renderRepoMap(index.files, { tokens: BUDGET, focus });
    if (map.text.includes(`\n${q.file}:\n`)) hits++;
    if (general.includes(`\n${q.file}:\n`)) generalHits++;
    if (baseline.has(q.file)) baselineHits++;
  }
  const n = asked.length;
  console.log(
    `workload: ${n} symbols of the ${paths.length} sources, each defined in one file and referenced from 3+ other files, evenly spaced in name order; recall = the defining file is in the ${BUDGET}-token map for "Where is NAME defined?"; baseline = the largest files listed by path within the same ${BUDGET} tokens (${baseline.size} files)`,
  );
  const ratio = baselineHits > 0 ? (hits / baselineHits).toFixed(1) : "inf";
  console.log(
    `BENCH context.repomap.recall ${(hits / n).toFixed(2)} ratio baseline=${(baselineHits / n).toFixed(2)} ratio=${ratio}`,
  );
  console.log(`BENCH context.repomap.recall_unfocused ${(generalHits / n).toFixed(2)} ratio`);
}

const work = await mkdtemp(join(tmpdir(), "repomap-bench-"));
try {
  const root = join(work, "core");
  const paths = await writeSources(root);
  if (paths.length < 2000) throw new Error(`only ${paths.length} sources in ${SOURCE_PACKAGE}`);
  const data = join(work, "data");
  await speed(root, paths, data);
  await quality(root, paths, join(data, "cold-0.json"));
} finally {
  await rm(work, { recursive: true, force: true });
}
