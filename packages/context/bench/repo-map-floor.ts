// The floor under the repo map's cold build: the same files parsed by bare web-tree-sitter on
// as many threads as the build parses on, with nothing else (no index, no messages, no cache,
// no ranking). The threads load the grammar as the map does (dist's loadLanguage: the same
// runtime start, wasm and query), run at the map's threads' priority (nice 10 on Linux) and
// take files one at a time from a shared counter, so no thread waits while another has files
// left.
//   parse: tree-sitter's parse alone (tree made, then deleted)
//   tags:  the map's per-file work, extractTags (parse, tag query, tags)
import { Worker } from "node:worker_threads";

/** What the floor's threads do with each file. */
export type FloorMode = "parse" | "tags";

/** One floor run: wall from the threads' start to the last file done, and the process's CPU. */
export interface FloorRun {
  readonly wall: number;
  readonly cpu: number;
}

const LANGUAGES = new URL("../dist/repo-map/languages.js", import.meta.url).href;
const TAGS = new URL("../dist/repo-map/tags.js", import.meta.url).href;
/** The nice value of the map's threads (worker-protocol.ts's WORKER_NICE). */
const NICE = 10;

// Plain JavaScript (a worker does not run tsx): reads, parses, counts what it did.
const THREAD = `
const { workerData, parentPort } = await import("node:worker_threads");
const { readFileSync } = await import("node:fs");
const { join } = await import("node:path");
const { loadLanguage } = await import(workerData.languages);
const { extractTags } = await import(workerData.tags);
const { root, paths, mode, counter, nice } = workerData;
// At the map's threads' priority (Linux: a thread's own), so a loaded machine weighs alike.
if (process.platform === "linux") (await import("node:os")).setPriority(nice);
const next = new Int32Array(counter);
const language = await loadLanguage("typescript");
for (let i = Atomics.add(next, 0, 1); i < paths.length; i = Atomics.add(next, 0, 1)) {
  const text = readFileSync(join(root, paths[i]), "utf8");
  if (mode === "tags") extractTags(text, language);
  else language.parser.parse(text)?.delete();
}
parentPort.postMessage("done");
`;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Parses `paths` (relative to `root`) on `threads` worker threads; see the file's header. */
export async function parseFloor(
  root: string,
  paths: readonly string[],
  threads: number,
  mode: FloorMode,
): Promise<FloorRun> {
  const counter = new SharedArrayBuffer(4);
  const started = performance.now();
  const cpu = cpuMs();
  const workerData = { root, paths, mode, counter, nice: NICE, languages: LANGUAGES, tags: TAGS };
  await Promise.all(
    Array.from(
      { length: threads },
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(THREAD, { eval: true, workerData, execArgv: [] });
          worker.once("message", () => resolve());
          worker.once("error", reject);
          worker.once("exit", (code) => reject(new Error(`floor thread exited (${code})`)));
        }),
    ),
  );
  return { wall: performance.now() - started, cpu: cpuMs() - cpu };
}
