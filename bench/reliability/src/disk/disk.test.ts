import { describe, expect, it } from "vitest";
import { diskSkipReason, runDiskSuite } from "./suite.js";

const skip = diskSkipReason();
if (skip !== undefined) console.warn(`the full-disk suite is skipped: ${skip}`);

// The whole full-disk suite (a few seconds): each row fills a 4 MiB tmpfs data folder in a
// private mount namespace at its moment.
describe.skipIf(skip !== undefined)("a full disk", () => {
  it("fails the turn saying so, loses nothing acknowledged, and resumes once space is back", async () => {
    const results = await runDiskSuite();
    expect(results.filter((r) => r.problems.length > 0)).toEqual([]);
    for (const r of results) expect(r.reason).toMatch(/no space left on the device \(ENOSPC\)/);
  });
});
