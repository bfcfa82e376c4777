// The crash fuzz (issue 47): SIGKILLs of real zeng -p runs at random moments, each resumed.
//   node dist/bench/crash.js [--kills 1000] [--chain 3] [--postgres <url>] [--verbose]
import { runCrashFuzz } from "../crash/fuzz.js";
import { type Driver, postgresDriver, zengDriver } from "../crash/drivers.js";
import { bench, flag, numberFlag } from "./report.js";

const kills = numberFlag("kills", 1000);
const verbose = flag("verbose");
const pgAt = process.argv.indexOf("--postgres");
const pgUrl = pgAt === -1 ? undefined : process.argv[pgAt + 1];
const driver: Driver = pgUrl ? postgresDriver(pgUrl, `crash_${Date.now()}`) : zengDriver();
console.log(
  `workload: ${kills} kills of real runs over the ${driver.store} store (fake provider over HTTP, real tools), kinds cycled, both wire formats, each kill resumed`,
);
const started = Date.now();
const results = await runCrashFuzz({
  kills,
  driver,
  chain: numberFlag("chain", 3),
  onKill: (r) => {
    if (verbose) console.log(`kill ${r.kind} ${r.format} landed=${r.landed}`);
    if (r.problems.length > 0)
      console.log(`FAILED ${r.kind} ${r.format}:\n  ${r.problems.join("\n  ")}`);
  },
});
await driver.dispose();
const survived = results.filter((r) => r.problems.length === 0).length;
const lost = results.reduce((n, r) => n + r.lost, 0);
const twice = results.reduce((n, r) => n + r.twice, 0);
const landed = results.filter((r) => r.landed).length;
console.log(
  `landed=${landed}/${results.length} seconds=${((Date.now() - started) / 1000).toFixed(0)}`,
);
bench("crash", results.length, "kills", { survived, lost, twice });
process.exitCode = survived === results.length ? 0 : 1;
