// The crash fuzz (issue 47): SIGKILLs of real zeng -p runs at random moments, each resumed.
//   node dist/bench/crash.js [--kills 1000] [--chain 3] [--postgres [<url>]] [--kinds a,b] [--verbose]
// --postgres without a URL starts a server of its own (fsync on; scripts/test-services.mjs).
import { runCrashFuzz } from "../crash/fuzz.js";
import { CRASH_KINDS } from "../crash/model.js";
import { type Driver, postgresDriver, zengDriver } from "../crash/drivers.js";
import { startPostgres } from "../../../../scripts/test-services.mjs";
import { bench, flag, numberFlag } from "./report.js";

const kills = numberFlag("kills", 1000);
const verbose = flag("verbose");
const kindsAt = process.argv.indexOf("--kinds");
const kinds =
  kindsAt === -1
    ? CRASH_KINDS
    : CRASH_KINDS.filter((k) => (process.argv[kindsAt + 1] ?? "").split(",").includes(k));
const pgAt = process.argv.indexOf("--postgres");
const given = pgAt === -1 ? undefined : process.argv[pgAt + 1];
const server =
  pgAt !== -1 && (given === undefined || given.startsWith("--"))
    ? await startPostgres({ durable: true })
    : undefined;
if (server?.url === null) throw new Error(`no Postgres server for --postgres: ${server.reason}`);
const pgUrl = server?.url ?? given;
const driver: Driver = pgUrl ? postgresDriver(pgUrl, `crash_${Date.now()}`) : zengDriver();
console.log(
  `workload: ${kills} kills of real runs over the ${driver.store} store (fake provider over HTTP, real tools), kinds cycled (${kinds.join(", ")}), both wire formats, each kill resumed`,
);
const started = Date.now();
const results = await runCrashFuzz({
  kills,
  driver,
  chain: numberFlag("chain", 3),
  kinds,
  onKill: (r) => {
    if (verbose) console.log(`kill ${r.kind} ${r.format} landed=${r.landed}`);
    if (r.problems.length > 0)
      console.log(`FAILED ${r.kind} ${r.format}:\n  ${r.problems.join("\n  ")}`);
  },
});
await driver.dispose();
await server?.stop?.();
const survived = results.filter((r) => r.problems.length === 0).length;
const lost = results.reduce((n, r) => n + r.lost, 0);
const twice = results.reduce((n, r) => n + r.twice, 0);
const landed = results.filter((r) => r.landed).length;
console.log(
  `landed=${landed}/${results.length} seconds=${((Date.now() - started) / 1000).toFixed(0)}`,
);
bench("crash", results.length, "kills", { survived, lost, twice });
process.exitCode = survived === results.length ? 0 : 1;
