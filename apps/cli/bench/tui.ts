// tui.ready: from starting `zeng` in a terminal (tmux, 80x30) to its prompt on the screen.
// tui.keypress: from sending one key (tmux send-keys) to the screen showing it, while idle
// (after the session has opened: `/co` completes to the engine's `/cost`, then is cleared).
// Both read the screen with `tmux capture-pane` in a tight loop, so tmux's own cost is in
// the figures; the baselines measure the same path for `node -e` printing a line (ready)
// and for `cat`'s terminal echo (keypress).
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

const provider = await startFakeProvider({ script: [] });
const world = await benchHome();
const env = { ...world.env(provider), TERM: "xterm-256color" };
const ready: number[] = [];
const readyBase: number[] = [];
let press = 0;
let pressBase = 0;
try {
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const z = timed([process.execPath, MAIN], env, world.repo.root, "type a message");
    const b = timed(
      [process.execPath, "-e", "console.log('ready'); setInterval(() => {}, 1000)"],
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
} finally {
  await provider.close();
  await world.dispose();
}
const r = median(ready);
const rb = median(readyBase);
console.log(
  `workload: start \`node dist/main.js\` in tmux (80x30) in a one-file git repo (catalog off) until its prompt shows; ${RUNS} runs after ${WARMUP} warm-ups; baseline: \`node -e\` printing a line in tmux`,
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
