// The host side of agentSdk.firstMessage, in one fresh process: imports the built package
// (timed: `importMs`), starts the fake provider in this process (untimed), then calls
// query() with a string prompt and times the first `system` message (`firstMessageMs`) and
// the provider's receipt of the first request (`firstRequestMs`). `rssMb`: the process's
// peak resident set after the query ended. Prints one JSON line.
import { performance } from "node:perf_hooks";

const t0 = performance.now();
const { query } = await import("../dist/index.js");
const importMs = performance.now() - t0;

const { reply, startFakeProvider } = await import("@z-engine/testkit");
const provider = await startFakeProvider({ script: [reply.text("hello")] });
const env = { ...process.env, ZENGINE_BASE_URL: provider.anthropicBaseUrl };

let firstRequest = 0;
const arrived = provider.requestArrived(0).then(() => {
  firstRequest = performance.now();
});
const started = performance.now();
let firstMessage = 0;
for await (const message of query({ prompt: "hi", options: { cwd: process.cwd(), env } })) {
  if (message.type === "system" && firstMessage === 0) firstMessage = performance.now();
}
await arrived;
await provider.close();
console.log(
  JSON.stringify({
    importMs,
    firstMessageMs: firstMessage - started,
    firstRequestMs: firstRequest - started,
    rssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
