import { describe, expect, it } from "vitest";
import { DISK_ROWS } from "./rows.js";
import { diskSkipReason, prepareEioFs, rowsOf, runDiskSuite } from "./suite.js";

const skip = diskSkipReason();
if (skip !== undefined) console.warn(`the full-disk suite is skipped: ${skip}`);
const eioSkip = skip === undefined ? prepareEioFs() : undefined;
if (eioSkip !== undefined) console.warn(`the full-disk suite's EIO rows are skipped: ${eioSkip}`);

// The full-disk suite's CI subset (about 10 s): the three full-tmpfs rows and the torn EIO
// row, each failing its data folder's device in a private mount namespace at its moment.
describe.skipIf(skip !== undefined)("a full or failing disk", () => {
  it("fails the turn saying why, loses nothing acknowledged, and resumes once the disk is healthy", async () => {
    const options = { eio: eioSkip === undefined, ci: true };
    const results = await runDiskSuite(options);
    expect(results.filter((r) => r.problems.length > 0)).toEqual([]);
    for (const r of results) {
      const row = DISK_ROWS.find((d) => d.name === r.name);
      if ((row?.outcome ?? "failed") === "failed") expect(r.reason).toMatch(row?.says ?? /^$/);
    }
    expect(results.map((r) => r.name)).toEqual(rowsOf(options).map(([, row]) => row.name));
    if (options.eio) expect(results.some((r) => /EIO/.test(r.name))).toBe(true);
  });
});
