// BENCH web.paint: event-to-paint latency of streamed text. The model streams 40 deltas, one
// every 25 ms; the page records when each delta's word is in the DOM at the next animation
// frame, and the latency is that time minus the envelope's `ts` (set when the engine emitted
// it; browser and engine share this machine's clock). Prints the median and the 95th percentile.
import { part, reply } from "@z-engine/testkit";
import { launchBrowser, newSession, send, startFixture } from "../test/web-harness.js";

const WORDS = Array.from({ length: 40 }, (_, i) => `w${i}x`);
const f = await startFixture({
  files: { "a.txt": "a\n" },
  script: [{ ...reply.of(...WORDS.map((w) => part.text(`${w} `))), delayMs: 25 }],
});
const browser = await launchBrowser();
const page = await browser.newPage();
await page.addInitScript(() => {
  const w = window as unknown as { sent: Record<string, number>; seen: Record<string, number> };
  w.sent = {};
  w.seen = {};
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init);
      this.addEventListener("message", (m) => {
        const item = JSON.parse((m as MessageEvent).data as string);
        const e = item.envelope.event;
        if (e.type === "textDelta") w.sent[e.text.trim()] = item.envelope.ts;
      });
    }
  } as typeof EventSource;
  new MutationObserver(() => {
    requestAnimationFrame(() => {
      const now = Date.now();
      for (const m of (document.body.textContent ?? "").matchAll(/w\d+x/g)) w.seen[m[0]] ??= now;
    });
  }).observe(document, { subtree: true, childList: true, characterData: true });
});
await newSession(page, f);
await send(page, "stream please");
await page.getByTestId("turn-end").waitFor();
const { sent, seen } = await page.evaluate(() => {
  const w = window as unknown as { sent: Record<string, number>; seen: Record<string, number> };
  return { sent: w.sent, seen: w.seen };
});
const latencies = WORDS.flatMap((w) =>
  sent[w] !== undefined && seen[w] !== undefined ? [seen[w] - sent[w]] : [],
).sort((a, b) => a - b);
await browser.close();
await f.dispose();
const at = (q: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
console.log(
  `BENCH web.paint ${Math.round(at(0.5))} ms [budget=50 p95=${Math.round(at(0.95))} samples=${latencies.length}]`,
);
