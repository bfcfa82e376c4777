// tui.render1000: a stored session of 1,000 messages (250 turns: prompt, a Bash call, its
// result, an answer) resumed with `zeng --resume ID` in tmux (100x40), scrolled from the
// bottom of the scrollback to its top and back (tmux copy-mode, a page at a time), then 30
// keys typed into the prompt. A preloaded module in the zeng process watches its event loop
// (perf_hooks monitorEventLoopDelay, 1 ms resolution): a frame over 16 ms is a block over
// 16 ms. Prints the time to the last answer on screen, the longest block while the history
// is printed, the longest block while scrolling and typing (the figure the name promises) and
// the keypress median, each beside a baseline: the same steps in a fresh, empty session.
// Each block's CPU time is counted twice: the whole process's (`.printCpu`, with the GC's and
// the compiler's helper threads, which run beside the event loop) and the main thread's own
// (`.printMainCpu`, Linux's /proc/thread-self/schedstat). To find what a block was:
// BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" passes flags to the resumed zeng and
// BENCH_LONG_BLOCKS=FILE appends each block over 16 ms of process CPU to FILE (its start and
// end on a .cpuprofile's clock in µs, its process and main-thread CPU ms; "report" between
// phases: print, settle, scroll).
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeProvider } from "@z-engine/testkit";
import { type Pane, startPane } from "../src/tui/e2e/tmux.test.helpers.js";
import { answerOf, longSession } from "./long-session.js";
import { benchHome, MAIN, median } from "./world.js";

const TURNS = 250;
const KEYS = 30;
const PAGES = 40;
const SETTLE_MS = 2_000;

/**
 * A preload that watches the event loop with a 1 ms timer from the first frame with the input
 * box on: on SIGUSR2 it appends the longest block since the last report (ms), how many blocks
 * ran over 16 ms, the most CPU time one block used (ms) and how many used over 16 ms, and
 * starts over. On a shared machine a block's wall time is mostly other processes' turns;
 * its CPU time is what it costs on an idle one.
 */
const blockWatch = (file: string, long: string | undefined) => `
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
// With a log of the long blocks: each thread's CPU time (ms), to say whose it was.
const threads = () => {
  const all = new Map();
  if (!${long !== undefined}) return all;
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      const ns = Number(readFileSync(\`/proc/self/task/\${tid}/schedstat\`, "utf8").split(" ")[0]);
      const name = readFileSync(\`/proc/self/task/\${tid}/comm\`, "utf8").trim();
      all.set(tid, { name, ms: ns / 1e6 });
    } catch {}
  }
  return all;
};
const byThread = (before, after) => {
  const sums = new Map();
  for (const [tid, t] of after) {
    const ms = t.ms - (before.get(tid)?.ms ?? 0);
    const name = tid === String(process.pid) ? "main" : \`\${t.name}#\${tid}\`;
    if (ms > 0.5) sums.set(name, ms);
  }
  return [...sums].sort((a, b) => b[1] - a[1]).map(([n, ms]) => \`\${n.replaceAll(" ", "_")}=\${ms.toFixed(1)}\`).join(" ");
};
let lastThreads = new Map();
writeFileSync(${JSON.stringify(`${file}.pid`)}, String(process.pid));
let last = -1, lastCpu = 0, lastMain = 0, lastUs = 0n, max = 0, over = 0, cpuMax = 0, cpuOver = 0;
let mainMax = 0, mainOver = 0;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
// The main thread's own CPU time (ms; Linux's schedstat, ns on the CPU): the event loop's
// work, without the GC's and the compiler's helper threads that run beside it.
const main = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (last < 0 && String(chunk).includes("\u203a ")) {
    last = performance.now();
    lastCpu = cpu();
    lastMain = main();
    lastUs = process.hrtime.bigint() / 1000n;
    lastThreads = threads();
  }
  return write(chunk, ...rest);
};
setInterval(() => {
  const now = performance.now();
  if (last >= 0) {
    const block = now - last - 1;
    if (block > max) max = block;
    if (block > 16) over++;
    const used = cpu();
    const work = used - lastCpu;
    // A block's CPU time (all the process's threads): what the block costs on an idle machine.
    if (block > 1 && work > cpuMax) cpuMax = work;
    if (block > 1 && work > 16) cpuOver++;
    const own = main();
    if (block > 1 && own - lastMain > mainMax) mainMax = own - lastMain;
    if (block > 1 && own - lastMain > 16) mainOver++;
    const us = process.hrtime.bigint() / 1000n;
    const nowThreads = threads();
    // Each block over 16 ms of CPU on the profile's clock (µs), to cut a --cpu-prof at it.
    if (${long !== undefined} && block > 1 && work > 16)
      appendFileSync(${JSON.stringify(long ?? "")}, \`\${lastUs} \${us} \${work.toFixed(1)} \${(own - lastMain).toFixed(1)} \${byThread(lastThreads, nowThreads)}\\n\`);
    lastThreads = nowThreads;
    lastUs = us;
    last = now;
    lastCpu = used;
    lastMain = own;
  }
}, 1).unref();
process.on("SIGUSR2", () => {
  if (${long !== undefined}) appendFileSync(${JSON.stringify(long ?? "")}, "report\\n");
  appendFileSync(${JSON.stringify(file)}, \`\${max.toFixed(1)} \${over} \${cpuMax.toFixed(1)} \${cpuOver} \${mainMax.toFixed(1)} \${mainOver}\\n\`);
  max = 0;
  over = 0;
  cpuMax = 0;
  cpuOver = 0;
  mainMax = 0;
  mainOver = 0;
});
`;

/** Milliseconds until `test` holds for the screen, polling without pause; throws after 60 s. */
function until(pane: Pane, started: number, test: (screen: string) => boolean): number {
  for (;;) {
    const now = performance.now();
    if (test(pane.screen())) return now - started;
    if (now - started > 60_000) throw new Error(`the screen never matched:\n${pane.screen()}`);
  }
}

/** The zeng process's longest block since the last report (ms) and the count over 16 ms. */
async function longestBlock(file: string): Promise<{
  max: number;
  over: number;
  cpuMax: number;
  cpuOver: number;
  mainMax: number;
  mainOver: number;
}> {
  const pid = Number(await readFile(`${file}.pid`, "utf8"));
  const before = (await readFile(file, "utf8").catch(() => "")).split("\n").length;
  process.kill(pid, "SIGUSR2");
  for (;;) {
    const lines = (await readFile(file, "utf8").catch(() => "")).trim().split("\n");
    if (lines.length >= before && lines.at(-1)) {
      const [max, over, cpuMax, cpuOver, mainMax, mainOver] = (lines.at(-1) as string)
        .split(" ")
        .map(Number);
      return {
        max: max as number,
        over: over as number,
        cpuMax: cpuMax as number,
        cpuOver: cpuOver as number,
        mainMax: mainMax as number,
        mainOver: mainOver as number,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Scrolls the pane's scrollback up `PAGES` pages and back down (tmux copy-mode), then types `KEYS` keys; the keypress median. */
function scrollAndType(pane: Pane): number {
  pane.scroll(PAGES);
  const samples: number[] = [];
  for (let i = 1; i <= KEYS; i++) {
    const started = performance.now();
    pane.type("x");
    samples.push(
      until(pane, started, (s) =>
        // The input box is the last line with the prompt sign (the history has prompts too).
        (s.split("\n").findLast((l) => l.includes("› ")) ?? "").includes("x".repeat(i)),
      ),
    );
  }
  return median(samples);
}

async function measure(
  args: readonly string[],
  ready: string,
  file: string,
  env: Record<string, string>,
  cwd: string,
) {
  await writeFile(file, "");
  const started = performance.now();
  const flags =
    args.length > 0 ? (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean) : [];
  const pane = startPane([process.execPath, ...flags, "--import", `${file}.mjs`, MAIN, ...args], {
    env,
    cwd,
    width: 100,
    height: 40,
  });
  try {
    const open = until(pane, started, (s) => s.includes(ready) && s.includes("› "));
    const print = await longestBlock(file);
    // What the open still does after the prompt shows (the repo map, the code cache), apart.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const settle = await longestBlock(file);
    const press = scrollAndType(pane);
    const scroll = await longestBlock(file);
    return { open, print, settle, scroll, press };
  } finally {
    await pane.kill();
  }
}

const provider = await startFakeProvider({ script: [] });
const world = await benchHome();
const env = { ...world.env(provider), TERM: "xterm-256color" };
const file = join(world.home, "blocks.txt");
await writeFile(`${file}.mjs`, blockWatch(file, process.env.BENCH_LONG_BLOCKS));
try {
  const id = await longSession(provider, env, world.repo.root, TURNS);
  const last = answerOf(TURNS - 1).slice(0, 20);
  const r = await measure(["--resume", id], last, file, env, world.repo.root);
  const b = await measure([], "type a message", file, env, world.repo.root);
  const line = (name: string, a: number, base: number, unit: string, extra = "") =>
    console.log(
      `BENCH tui.render1000${name} ${a.toFixed(1)} ${unit} baseline=${base.toFixed(1)} ratio=${(a / Math.max(base, 0.1)).toFixed(2)}${extra}`,
    );
  console.log(
    `workload: \`zeng --resume\` of a stored session of ${TURNS * 4} messages (${TURNS} turns with a Bash call each) in tmux (100x40) until the last answer shows; baseline: a fresh, empty session until its prompt shows`,
  );
  line(".open", r.open, b.open, "ms");
  line(
    ".print",
    r.print.max,
    b.print.max,
    "ms",
    ` over16=${r.print.over} baselineOver16=${b.print.over}`,
  );
  line(
    ".printCpu",
    r.print.cpuMax,
    b.print.cpuMax,
    "ms",
    ` over16=${r.print.cpuOver} baselineOver16=${b.print.cpuOver}`,
  );
  line(
    ".printMainCpu",
    r.print.mainMax,
    b.print.mainMax,
    "ms",
    ` over16=${r.print.mainOver} baselineOver16=${b.print.mainOver}`,
  );
  console.log(
    `workload: then ${SETTLE_MS / 1000} s idle, then ${PAGES} pages up and down the scrollback (tmux copy-mode) and ${KEYS} keys typed: the zeng process's longest event-loop block (a 1 ms timer from the first frame on; a frame over 16 ms is a block over 16 ms) and the keypress median`,
  );
  line(
    ".settle",
    r.settle.max,
    b.settle.max,
    "ms",
    ` over16=${r.settle.over} baselineOver16=${b.settle.over}`,
  );
  line(
    "",
    r.scroll.max,
    b.scroll.max,
    "ms",
    ` over16=${r.scroll.over} baselineOver16=${b.scroll.over}`,
  );
  line(".keypress", r.press, b.press, "ms");
} finally {
  await provider.close();
  await world.dispose();
}
