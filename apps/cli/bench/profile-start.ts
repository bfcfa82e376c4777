// Not a benchmark: runs `node <flags> dist/main.js -p hi` against the fake provider in the
// cold-start bench's world, three times with one data folder (so the last run uses the code
// cache), the flags on the last run only, to profile the start (README, "Start-up"):
// `ZENG_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" tsx bench/profile-start.ts`.
import { performance } from "node:perf_hooks";
import { reply, startFakeProvider } from "@z-engine/testkit";
import { benchHome, MAIN, run } from "./world.js";

const flags = (process.env.ZENG_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const world = await benchHome();
try {
  for (let i = 0; i < 3; i++) {
    const provider = await startFakeProvider({ script: [reply.text("hello")] });
    const started = performance.now();
    let arrived = 0;
    void provider.requestArrived(0).then(() => {
      arrived = performance.now();
    });
    const result = await run(
      [...(i === 2 ? flags : []), MAIN, "-p", "hi", "--output-format", "json"],
      world.env(provider),
      world.repo.root,
    );
    await provider.close();
    console.log(`run ${i + 1}: first request after ${(arrived - started).toFixed(0)} ms`);
    if (result.code !== 0) console.log(result.stderr);
  }
} finally {
  await world.dispose();
}
