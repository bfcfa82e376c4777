import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeCatalog } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { ModelCatalog } from "./catalog/catalog.js";
import { priceRequest, priceUsage, resolvePricing } from "./cost.js";

const tokens = { input: 1_000_000, output: 500_000, cacheRead: 2_000_000, cacheWrite: 100_000 };

describe("cost", () => {
  it("prices the four token kinds separately", () => {
    const usage = priceUsage(tokens, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
    expect(usage).toEqual({ ...tokens, costUsd: expect.closeTo(3 + 7.5 + 0.6 + 0.375, 10) });
    expect(priceUsage(tokens, undefined).costUsd).toBe(0);
    expect(
      priceUsage(
        { input: 1, output: 0, cacheRead: 0, cacheWrite: 0 },
        { input: 3, output: 0, cacheRead: 0, cacheWrite: 0 },
      ).costUsd,
    ).toBeCloseTo(0.000003, 12);
  });

  it("prices from the catalog's data", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "zeng-llm-cost-"));
    const server = await startFakeCatalog();
    const catalog = await ModelCatalog.open({ dataDir, source: server.url });
    await catalog.idle();
    // gpt-test has no cache_write price in the catalog: cache writes cost the input price.
    const usage = priceRequest("gpt-test", tokens, { catalog });
    expect(usage.costUsd).toBeCloseTo(2.5 + 5 + 2.5 + 0.25, 10);
    expect(resolvePricing("gpt-test", { catalog })).toEqual({
      pricing: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 },
      source: "catalog",
    });
    catalog.close();
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("takes overrides first, field by field, then the catalog, then the built-in table", () => {
    expect(resolvePricing("gpt-4o", { overrides: { "gpt-4o": { output: 1 } } })).toEqual({
      pricing: { input: 2.5, output: 1, cacheRead: 1.25, cacheWrite: 2.5 },
      source: "override",
    });
    expect(resolvePricing("claude-haiku-4-5")?.source).toBe("builtin");
    expect(
      resolvePricing("house-model", { overrides: { "house-model": { input: 2, output: 4 } } })
        ?.pricing,
    ).toEqual({
      input: 2,
      output: 4,
      cacheRead: 2,
      cacheWrite: 2,
    });
    expect(resolvePricing("house-model")).toBeUndefined();
    expect(priceRequest("house-model", tokens).costUsd).toBe(0);
  });
});
