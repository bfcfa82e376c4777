// Not a benchmark: runs `node <flags> dist/zeng.cjs -p hi` against the fake provider in the
// cold-start bench's world, with one data folder (so the runs after the first use the code
// cache), the flags on the last PROFILE_RUNS runs (default 1) of 2 + PROFILE_RUNS, to profile
// the start (README, "Start-up"):
// `ZENG_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof" tsx bench/profile-start.ts`.
// Each run prints when the request arrived on the monotonic clock in microseconds
// (`arrivedAt`), the clock a `.cpuprofile`'s `startTime` and sample times use, so a profile
// can be cut at the request.
import { performance } from "node:perf_hooks";
import { reply, startFakeProvider } from "@z-engine/testkit";
import { benchHome, MAIN, run } from "./world.js";

const flags = (process.env.ZENG_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const profiled = Number(process.env.PROFILE_RUNS ?? 1);
const world = await benchHome();
try {
  for (let i = 0; i < 2 + profiled; i++) {
    const provider = await startFakeProvider({ script: [reply.text("hello")] });
    const started = performance.now();
    let arrived = 0;
    let arrivedAt = 0n;
    void provider.requestArrived(0).then(() => {
      arrived = performance.now();
      arrivedAt = process.hrtime.bigint() / 1000n;
    });
    const result = await run(
      [...(i >= 2 ? flags : []), MAIN, "-p", "hi", "--output-format", "json"],
      world.env(provider),
      world.repo.root,
    );
    await provider.close();
    console.log(
      `run ${i + 1}: first request after ${(arrived - started).toFixed(0)} ms (arrivedAt ${arrivedAt})`,
    );
    if (result.code !== 0) console.log(result.stderr);
  }
} finally {
  await world.dispose();
}
