// Benchmarks the repo map (design.md §7) on a real codebase from the registry: the
// TypeScript declarations of @babylonjs/core (a devDependency; 3,300+ .d.ts files).
// `context.repomap.cold`: index and render with an empty cache; `context.repomap.warm`: the
// rebuild after one file changed; `context.repomap.memory`: peak RSS of this process.
// Quality: 50 symbols defined in one file and referenced from others; for each, the map for
// the prompt "Where is NAME defined?" is scored on whether it shows the defining file
// (recall), beside a baseline map of the same size that lists the largest files.
import { cp, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { mapTokens, RepoIndex, renderRepoMap } from "../src/index.js";

const BUDGET = 1000;
const SOURCE = join(dirname(fileURLToPath(import.meta.url)), "../node_modules/@babylonjs/core");

async function declarations(root: string, dir = ""): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await declarations(root, path)));
    else if (entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Wall and CPU time of one rebuild: index and render (the cache file is written after). */
async function timed(index: RepoIndex, paths: string[]): Promise<[number, number]> {
  const started = performance.now();
  const cpu = cpuMs();
  await index.update(paths);
  renderRepoMap(index.files, { tokens: BUDGET });
  const times: [number, number] = [performance.now() - started, cpuMs() - cpu];
  index.save();
  return times;
}

let rssAfterCold = 0;

async function speed(root: string, paths: string[], data: string): Promise<RepoIndex> {
  const colds: Array<[number, number]> = [];
  let index = new RepoIndex({ root, cacheFile: join(data, "cold-0.json") });
  for (let i = 0; i < 3; i++) {
    index = new RepoIndex({ root, cacheFile: join(data, `cold-${i}.json`) });
    colds.push(await timed(index, paths));
    if (i === 0) rssAfterCold = process.memoryUsage().rss;
  }
  const warms: Array<[number, number]> = [];
  const victim = paths[Math.floor(paths.length / 2)] as string;
  for (let i = 0; i < 7; i++) {
    await writeFile(join(root, victim), `export declare function benchEdit${i}(): void;\n`);
    warms.push(await timed(index, paths));
  }
  const restart = new RepoIndex({ root, cacheFile: join(data, "cold-2.json") });
  const fromDisk = await timed(restart, paths);
  const bytes = (await Promise.all(paths.map((p) => stat(join(root, p))))).reduce(
    (sum, s) => sum + s.size,
    0,
  );
  console.log(
    `workload: @babylonjs/core .d.ts, ${paths.length} files, ${(bytes / 1e6).toFixed(1)} MB; index + rank + render ${BUDGET} tokens; cold = empty cache (grammar loaded after the first run), warm = rebuild after one file changed, restart = a new process with the cache file; median of 3 and 7; _cpu = CPU time of the process (load-independent); memory = RSS after the first cold build (tsx included), memory_peak = peak RSS of the whole run`,
  );
  const wall = (xs: Array<[number, number]>) => median(xs.map((x) => x[0]));
  const cpu = (xs: Array<[number, number]>) => median(xs.map((x) => x[1]));
  console.log(`BENCH context.repomap.cold ${wall(colds).toFixed(0)} ms`);
  console.log(`BENCH context.repomap.cold_cpu ${cpu(colds).toFixed(0)} ms`);
  console.log(`BENCH context.repomap.warm ${wall(warms).toFixed(1)} ms`);
  console.log(`BENCH context.repomap.warm_cpu ${cpu(warms).toFixed(1)} ms`);
  console.log(`BENCH context.repomap.restart ${fromDisk[0].toFixed(0)} ms`);
  console.log(`BENCH context.repomap.memory ${(rssAfterCold / 1e6).toFixed(0)} MB`);
  console.log(
    `BENCH context.repomap.memory_peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  );
  return index;
}

/** 50 names defined in exactly one file and referenced from at least two others, spread evenly. */
function questions(index: RepoIndex): Array<{ name: string; file: string }> {
  const definers = new Map<string, Set<string>>();
  const users = new Map<string, number>();
  for (const [path, tags] of index.files) {
    for (const d of tags.defs) definers.set(d.name, (definers.get(d.name) ?? new Set()).add(path));
    for (const name of Object.keys(tags.refs)) users.set(name, (users.get(name) ?? 0) + 1);
  }
  const candidates = [...definers]
    .filter(([name, files]) => files.size === 1 && (users.get(name) ?? 0) >= 3 && name.length > 3)
    .map(([name, files]) => ({ name, file: [...files][0] as string }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const step = candidates.length / 50;
  return Array.from({ length: 50 }, (_, i) => candidates[Math.floor(i * step)]).filter(
    (q): q is { name: string; file: string } => q !== undefined,
  );
}

async function baselineFiles(root: string, paths: string[]): Promise<Set<string>> {
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

async function quality(root: string, paths: string[], index: RepoIndex): Promise<void> {
  const asked = questions(index);
  const baseline = await baselineFiles(root, paths);
  const general = renderRepoMap(index.files, { tokens: BUDGET }).text;
  let hits = 0;
  let generalHits = 0;
  let baselineHits = 0;
  for (const q of asked) {
    const map = renderRepoMap(index.files, {
      tokens: BUDGET,
      focus: { text: `Where is ${q.name} defined?` },
    });
    if (map.text.includes(`\n${q.file}:\n`)) hits++;
    if (general.includes(`\n${q.file}:\n`)) generalHits++;
    if (baseline.has(q.file)) baselineHits++;
  }
  const n = asked.length;
  console.log(
    `workload: ${n} symbols defined in one file and referenced from 3+ files; recall = the defining file is in a ${BUDGET}-token map for "Where is NAME defined?"; baseline = the largest files listed by path`,
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
  await cp(SOURCE, root, {
    recursive: true,
    filter: (src) => !src.endsWith(".js") && !src.endsWith(".map"),
  });
  const paths = await declarations(root);
  const index = await speed(root, paths, join(work, "data"));
  await quality(root, paths, index);
} finally {
  await rm(work, { recursive: true, force: true });
}
