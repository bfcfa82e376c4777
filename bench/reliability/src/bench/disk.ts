// The full-disk suite (issue 47): a session's data folder on a tiny tmpfs in a private mount
// namespace fills up at each row's moment; the turn must fail saying so, lose nothing
// acknowledged, and the session must resume once space is back.
//   node dist/bench/disk.js
import { DISK_ROWS } from "../disk/rows.js";
import { diskSkipReason, prepareEioFs, runDiskSuite } from "../disk/suite.js";
import { bench } from "./report.js";

const skip = diskSkipReason();
if (skip !== undefined) {
  console.log(`reliability.disk skipped: ${skip}`);
} else {
  const eioSkip = prepareEioFs();
  if (eioSkip !== undefined) console.log(`the EIO rows are skipped: ${eioSkip}`);
  console.log(
    `workload: ${DISK_ROWS.length} rows, each a real engine over the file store on a 4 MiB tmpfs or on eio-fs (FUSE, real EIO) (unshare -m), fake provider over HTTP`,
  );
  const results = await runDiskSuite({ eio: eioSkip === undefined }, (r) => {
    console.log(`row "${r.name}": the turn ended with "${r.reason ?? "no reason (completed)"}"`);
    if (r.problems.length > 0) console.log(`FAILED ${r.name}:\n  ${r.problems.join("\n  ")}`);
  });
  const passed = results.filter((r) => r.problems.length === 0).length;
  bench("disk", `${passed}/${results.length}`, "rows");
  process.exitCode = passed === results.length ? 0 : 1;
}
