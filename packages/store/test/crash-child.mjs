// Appends records in a loop until killed; reports each append that returned on stdout.
// Used by src/crash.test.ts (imports the built package: run `tsc -b` first).
import { writeSync } from "node:fs";
import { logRecord, openLogForAppend } from "../dist/index.js";

const path = process.argv[2];
const { log, read } = await openLogForAppend(path);
const last = read.records.at(-1);
let next = last && last.kind === "notice" ? Number.parseInt(last.message, 10) + 1 : 0;
writeSync(1, `ready ${next} ${read.damage.length} ${read.tornTail ? read.tornTail.bytes : 0}\n`);
for (;;) {
  // Sizes from a few bytes to 64 KiB, so kills land inside large writes too.
  const size = next % 41 === 0 ? 65536 : (next * 131) % 2000;
  const record = logRecord("notice", {
    level: "info",
    code: "x".repeat(size),
    message: String(next),
  });
  await log.append(record);
  writeSync(1, `${next}\n`);
  next++;
}
