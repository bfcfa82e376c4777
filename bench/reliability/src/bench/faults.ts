// The provider fault matrix (issue 47) through the engine, both wire formats:
//   node dist/bench/faults.js
import { FAULT_ROWS, runFaultMatrix, WIRE_FORMATS } from "../faults/matrix.js";
import { bench } from "./report.js";

console.log(
  `workload: ${FAULT_ROWS.length} fault rows x ${WIRE_FORMATS.length} wire formats, real llm clients over HTTP to the fake provider, retry clock injected`,
);
const results = await runFaultMatrix((r) => {
  if (!r.passed)
    console.log(`FAILED ${r.format}: ${r.row}\n  ${r.error?.split("\n").join("\n  ")}`);
});
const passed = results.filter((r) => r.passed).length;
bench("faults", `${passed}/${results.length}`, "rows");
process.exitCode = passed === results.length ? 0 : 1;
