// tui.ready: from starting `zeng` in a terminal (tmux, 80x30) to its prompt on the screen.
// tui.keypress: from sending one key (tmux send-keys) to the screen showing it, while idle
// (after the session has opened: `/co` completes to the engine's `/cost`, then is cleared).
// Both read the screen with `tmux capture-pane` in a tight loop, so tmux's own cost is in
// the figures; the baselines measure the same path for `node -e` printing a line (ready)
// and for `cat`'s terminal echo (keypress).
// tui.readyCpu: the CPU time (user + system) the zeng process spent until it wrote its
// prompt, read by a preloaded module; on a loaded machine it says more than the wall time.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { startFakeProvider } from "@z-engine/testkit";
import { type Pane, startPane } from "../src/tui/e2e/tmux.test.helpers.js";
import { benchHome, MAIN, median } from "./world.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const KEYS = 30;
const WARMUP = 2;

/** Milliseconds until `test` holds for the screen, polling without pause; throws after 10 s. */
function until(pane: Pane, started: number, test: (screen: string) => boolean): number {
  for (;;) {
    const now = performance.now();
    if (test(pane.screen())) return now - started;
    if (now - started > 10_000) throw new Error(`the screen never matched:\n${pane.screen()}`);
  }
}

function timed(command: string[], env: Record<string, string>, cwd: string, ready: string) {
  const started = performance.now();
  const pane = startPane(command, { env, cwd });
  try {
    return { ms: until(pane, started, (s) => s.includes(ready)), pane };
  } catch (error) {
    void pane.kill();
    throw error;
  }
}

/** Median ms from a key sent to the screen showing it, over `KEYS` keys; `line` finds the input. */
function keypress(pane: Pane, line: (screen: string) => string): number {
  const samples: number[] = [];
  for (let i = 1; i <= KEYS; i++) {
    const started = performance.now();
    pane.type("x");
    samples.push(until(pane, started, (s) => line(s).includes("x".repeat(i))));
  }
  return median(samples);
}

/** A preload that appends the process's CPU ms to `file` when stdout first gets `marker`. */
const cpuMark = (file: string, marker: string) => `
import { appendFileSync } from "node:fs";
const write = process.stdout.write.bind(process.stdout);
let seen = false;
process.stdout.write = (chunk, ...rest) => {
  if (!seen && String(chunk).includes(${JSON.stringify(marker)})) {
    seen = true;
    const c = process.cpuUsage();
    appendFileSync(${JSON.stringify(file)}, \`\${(c.user + c.system) / 1000}\\n\`);
  }
  return write(chunk, ...rest);
};
`;

const provider = await startFakeProvider({ script: [] });
const world = await benchHome();
const env = { ...world.env(provider), TERM: "xterm-256color" };
const cpuFile = join(world.home, "cpu.txt");
const cpuBaseFile = join(world.home, "cpu-base.txt");
const preload = join(world.home, "cpu-mark.mjs");
const preloadBase = join(world.home, "cpu-mark-base.mjs");
await writeFile(preload, cpuMark(cpuFile, "type a message"));
await writeFile(preloadBase, cpuMark(cpuBaseFile, "ready"));
const ready: number[] = [];
const readyBase: number[] = [];
let press = 0;
let cpu: number[] = [];
let cpuBase: number[] = [];
let pressBase = 0;
try {
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const z = timed(
      [process.execPath, ...(i >= WARMUP ? ["--import", preload] : []), MAIN],
      env,
      world.repo.root,
      "type a message",
    );
    const b = timed(
      [
        process.execPath,
        ...(i >= WARMUP ? ["--import", preloadBase] : []),
        "-e",
        "console.log('ready'); setInterval(() => {}, 1000)",
      ],
      env,
      world.repo.root,
      "ready",
    );
    if (i === WARMUP + RUNS - 1) {
      z.pane.type("/co");
      until(z.pane, performance.now(), (s) => s.includes("/cost"));
      z.pane.keys("C-u");
      until(z.pane, performance.now(), (s) => s.includes("type a message"));
      press = keypress(z.pane, (s) => s.split("\n").find((l) => l.includes("› ")) ?? "");
      const cat = timed(["cat"], env, world.repo.root, "");
      pressBase = keypress(cat.pane, (s) => s);
      await cat.pane.kill();
    }
    await z.pane.kill();
    await b.pane.kill();
    if (i >= WARMUP) {
      ready.push(z.ms);
      readyBase.push(b.ms);
    }
  }
  cpu = (await readFile(cpuFile, "utf8")).trim().split("\n").map(Number);
  cpuBase = (await readFile(cpuBaseFile, "utf8")).trim().split("\n").map(Number);
} finally {
  await provider.close();
  await world.dispose();
}
const r = median(ready);
const rb = median(readyBase);
console.log(
  `workload: start \`node dist/zeng.cjs\` in tmux (80x30) in a one-file git repo (catalog off) until its prompt shows; ${RUNS} runs after ${WARMUP} warm-ups; baseline: \`node -e\` printing a line in tmux`,
);
console.log(
  `BENCH tui.ready ${r.toFixed(0)} ms baseline=${rb.toFixed(0)} ratio=${(r / rb).toFixed(2)}`,
);
console.log(
  `workload: ${KEYS} keys typed one at a time into the idle prompt once the session is open (tmux send-keys), each until the screen shows it; median; baseline: the same keys echoed by \`cat\``,
);
console.log(
  `BENCH tui.keypress ${press.toFixed(1)} ms baseline=${pressBase.toFixed(1)} ratio=${(press / pressBase).toFixed(2)}`,
);
const c = median(cpu);
const cb = median(cpuBase);
console.log(
  `workload: the same starts; CPU time (user + system) of the process until it wrote its prompt (a preloaded module reads process.cpuUsage()); ${cpu.length} runs; baseline: \`node -e\` until it printed its line`,
);
console.log(
  `BENCH tui.readyCpu ${c.toFixed(0)} ms baseline=${cb.toFixed(0)} ratio=${(c / cb).toFixed(2)}`,
);
