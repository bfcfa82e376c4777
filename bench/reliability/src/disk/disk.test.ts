import { describe, expect, it } from "vitest";
import { DISK_ROWS } from "./rows.js";
import { diskSkipReason, prepareEioFs, runDiskSuite } from "./suite.js";

const skip = diskSkipReason();
if (skip !== undefined) console.warn(`the full-disk suite is skipped: ${skip}`);
const eioSkip = skip === undefined ? prepareEioFs() : undefined;
if (eioSkip !== undefined) console.warn(`the full-disk suite's EIO rows are skipped: ${eioSkip}`);

// The whole full-disk suite (a few seconds): each row fails its data folder's device (a 4 MiB
// tmpfs, or eio-fs) in a private mount namespace at its moment.
describe.skipIf(skip !== undefined)("a full or failing disk", () => {
  it("fails the turn saying why, loses nothing acknowledged, and resumes once the disk is healthy", async () => {
    const results = await runDiskSuite(eioSkip === undefined);
    expect(results.filter((r) => r.problems.length > 0)).toEqual([]);
    for (const r of results) {
      const row = DISK_ROWS.find((d) => d.name === r.name);
      if ((row?.outcome ?? "failed") === "failed") expect(r.reason).toMatch(row?.says ?? /^$/);
    }
    if (eioSkip === undefined) expect(results).toHaveLength(DISK_ROWS.length);
  });
});
