import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { postgresDriver } from "./drivers.js";
import { runCrashFuzz } from "./fuzz.js";

const url = (inject as (key: string) => unknown)("postgresUrl") as string | null;
const skip = (inject as (key: string) => unknown)("postgresSkip") as string;
if (url === null) console.warn(`the crash fuzz over the Postgres store is skipped: ${skip}`);

// The crash fuzz's Postgres subset (the bench script takes --postgres for the long run): one
// kill of each kind of a real host process over the Postgres store, the wire formats
// alternating, each killed host's session taken over by the next once its lease ran out.
describe.skipIf(url === null)("the crash fuzz over the Postgres store", () => {
  it("survives a kill of each kind", { timeout: 300_000 }, async () => {
    const schema = `crash_${randomBytes(6).toString("hex")}`;
    const driver = postgresDriver(url ?? "", schema);
    try {
      const results = await runCrashFuzz({ kills: 7, chain: 1, driver, alternate: true });
      const failed = results.filter((r) => r.problems.length > 0);
      expect(failed.map((r) => `${r.kind} ${r.format}: ${r.problems.join("; ")}`)).toEqual([]);
      expect(results.map((r) => r.format)).toContain("openai");
      expect(results.filter((r) => r.landed).length).toBeGreaterThanOrEqual(5);
    } finally {
      await driver.dispose();
      const client = new pg.Client({ connectionString: url ?? "" });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });
});
