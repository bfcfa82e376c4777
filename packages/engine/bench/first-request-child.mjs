// The host side of engine.firstRequest, in one process: imports the built engine (timed:
// `importMs`), starts the fake provider in this process (untimed), then creates the engine,
// opens a session and sends "hi" with the built-in Anthropic client (timed until the
// provider receives the request: `firstRequestMs`). With `--second`, a second session's
// open-to-request in the same process (everything loaded): `warmMs`. Prints one JSON line.
import { performance } from "node:perf_hooks";

const t0 = performance.now();
const { createEngine } = await import("../dist/index.js");
const { resolvePaths } = await import("@z-engine/config");
const importMs = performance.now() - t0;

const { reply, startFakeProvider } = await import("@z-engine/testkit");
const provider = await startFakeProvider({ script: [reply.text("hello"), reply.text("again")] });
const env = { ...process.env, ZENGINE_BASE_URL: provider.anthropicBaseUrl };

async function toFirstRequest(index, open) {
  let arrived = 0;
  const request = provider.requestArrived(index).then(() => {
    arrived = performance.now();
  });
  const started = performance.now();
  await open();
  await request;
  return arrived - started;
}

let engine;
const firstRequestMs = await toFirstRequest(0, async () => {
  engine = await createEngine({ paths: resolvePaths(env), env, catalogSource: "off" });
  const session = await engine.createSession(process.cwd(), { mode: "bypass" });
  await session.run("hi");
});
const warmMs = process.argv.includes("--second")
  ? await toFirstRequest(1, async () => {
      const session = await engine.createSession(process.cwd(), { mode: "bypass" });
      await session.run("hi");
    })
  : undefined;
await engine.shutdown();
await provider.close();
console.log(JSON.stringify({ importMs, firstRequestMs, warmMs }));
