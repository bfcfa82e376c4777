// BENCH web.session1000: a stored session of 1,000 messages (500 turns; every answer markdown,
// every fifth with a highlighted code block) opened in Chromium, then scrolled from the bottom
// to the top in 120 steps of 400 px, one step per animation frame. Prints the time from
// navigation to the last answer on screen, and the frames: Chromium runs animation frames
// every 16.7 ms, so a frame whose work ran over 16 ms shows as a gap of two frames (over
// 25 ms) between frame callbacks. Median of 3 runs (each a fresh page).
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { turnsRecords, variedAnswer } from "../test/log-records.js";
import { launchBrowser, startFixture } from "../test/web-harness.js";

const answer = variedAnswer;

const f = await startFixture({ files: { "a.txt": "a\n" }, script: [reply.text("first")] });
const session = await f.engine.createSession(f.repo.root);
await session.run("first");
const id = session.id;
await session.close();
await appendFile(
  join(f.dataDir, "sessions", id, "log.jsonl"),
  turnsRecords(499, Date.now(), answer),
);

/** Scrolls the element `selector` (or the document) up 120 steps of 400 px, one a frame; resolves with the gaps between frames. */
const SCROLL = `(selector) => new Promise((resolve) => {
  const scroller = selector ? document.querySelector(selector) : document.scrollingElement;
  const gaps = [];
  let last = performance.now();
  let steps = 0;
  const tick = (now) => {
    gaps.push(now - last);
    last = now;
    if (!scroller || steps++ >= 120) return resolve(gaps.slice(1));
    scroller.scrollTop = Math.max(0, scroller.scrollTop - 400);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})`;

const escapeHtml = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;");
/** The baseline: the same 1,000 messages as a static page (no script, everything in the DOM). */
const staticPage = `<!doctype html><body style="font:15px system-ui;max-width:860px;margin:auto">${Array.from(
  { length: 500 },
  (_, i) => `<p>question ${i}</p><div><pre>${escapeHtml(answer(i))}</pre></div>`,
).join("")}</body>`;

const median = <T>(list: T[], by: (t: T) => number) =>
  [...list].sort((a, b) => by(a) - by(b))[1] as T;
const browser = await launchBrowser();
const runs: Array<{ open: number; worst: number; long: number; frames: number }> = [];
for (let run = 0; run < 3; run++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const started = performance.now();
  await page.goto(`${f.server.url}&session=${id}`);
  await page.getByText("Answer number 498:").waitFor({ timeout: 60_000 });
  const open = performance.now() - started;
  const frames = (await page.evaluate(`(${SCROLL})('[data-testid="transcript"]')`)) as number[];
  runs.push({
    open,
    worst: Math.max(...frames),
    long: frames.filter((g) => g > 25).length,
    frames: frames.length,
  });
  await page.close();
}
const base: Array<{ worst: number; long: number }> = [];
for (let run = 0; run < 3; run++) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.setContent(staticPage);
  await page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
  const gaps = (await page.evaluate(`(${SCROLL})(null)`)) as number[];
  base.push({ worst: Math.max(...gaps), long: gaps.filter((g) => g > 25).length });
  await page.close();
}
await browser.close();
await f.dispose();
const baselineRun = median(base, (b) => b.worst);
const baseline = baselineRun.worst;
const open = median(runs, (r) => r.open);
const frames = median(runs, (r) => r.worst);
console.log(
  "workload: 1,000 messages (500 turns), 120 scroll steps of 400 px, one a frame; median of 3 runs",
);
console.log(
  `BENCH web.session1000.open ${Math.round(open.open)} ms [runs=${runs.map((r) => Math.round(r.open)).join(",")}]`,
);
console.log(
  `BENCH web.session1000.frame ${frames.worst.toFixed(1)} ms baseline=${baseline.toFixed(1)} ratio=${(frames.worst / baseline).toFixed(2)} [budget=16.7 frames-over-16ms=${frames.long}/${frames.frames} baseline-frames-over-16ms=${baselineRun.long} runs=${runs.map((r) => `${r.worst.toFixed(1)}/${r.long}`).join(",")}]`,
);
