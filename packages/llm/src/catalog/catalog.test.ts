import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type FakeCatalog, sampleCatalog, startFakeCatalog } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CATALOG_CACHE_FILE, ModelCatalog } from "./catalog.js";

let dataDir: string;
let server: FakeCatalog | undefined;
const catalogs: ModelCatalog[] = [];
const DAY = 24 * 60 * 60 * 1000;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "zeng-llm-catalog-"));
});
afterEach(async () => {
  for (const c of catalogs.splice(0)) c.close();
  await server?.close();
  server = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

async function open(options: Parameters<typeof ModelCatalog.open>[0]) {
  const catalog = await ModelCatalog.open(options);
  catalogs.push(catalog);
  return catalog;
}

describe("ModelCatalog.modelIds", () => {
  it("lists a provider's models: the catalog's, the built-in table's and models.json's", async () => {
    server = await startFakeCatalog();
    const modelsJsonPath = join(dataDir, "models.json");
    await writeFile(
      modelsJsonPath,
      JSON.stringify({ "my-local-model": { limit: { context: 8000 } } }),
    );
    const catalog = await open({ dataDir, source: server.url, modelsJsonPath });
    await catalog.idle();
    const anthropic = catalog.modelIds("anthropic");
    expect(anthropic[0]).toBe("claude-test-1");
    expect(anthropic).toContain("claude-sonnet-4-5");
    expect(anthropic).toContain("my-local-model");
    expect(anthropic).not.toContain("gpt-test");
    expect(catalog.modelIds("openai")).toContain("gpt-test");
    expect(catalog.modelIds("openai")).not.toContain("claude-test-1");
  });

  it("lists only the built-in table's models with the source off", async () => {
    const catalog = await open({ dataDir, source: "off" });
    expect(catalog.modelIds("anthropic")).toContain("claude-sonnet-5-5");
    expect(catalog.modelIds("openrouter")).toEqual([]);
  });
});

describe("ModelCatalog", () => {
  it("falls back to the built-in table with the source off and no files", async () => {
    const catalog = await open({ dataDir, source: "off" });
    expect(catalog.lookup("claude-sonnet-4-5-20250929")).toMatchObject({
      contextWindow: 200_000,
      outputLimit: 64_000,
      cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      source: "builtin",
    });
    expect(catalog.lookup("anthropic/claude-sonnet-4.5")?.source).toBe("builtin");
    expect(catalog.lookup("no-such-model")).toBeUndefined();
    expect(catalog.fetchedAt).toBeUndefined();
  });

  it("downloads in the background, caches, and refreshes only once the cache is a day old", async () => {
    server = await startFakeCatalog();
    let now = 1_000_000;
    const first = await open({ dataDir, source: server.url, now: () => now });
    await first.idle();
    expect(server.hits).toBe(1);
    expect(first.lookup("claude-test-1")).toEqual({
      id: "claude-test-1",
      name: "Claude Test 1",
      contextWindow: 200_000,
      outputLimit: 64_000,
      cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      source: "catalog",
    });
    expect(first.lookup("openai/gpt-test")?.contextWindow).toBe(128_000);
    const cache = JSON.parse(await readFile(join(dataDir, CATALOG_CACHE_FILE), "utf8"));
    expect(cache).toMatchObject({ v: 2, fetchedAt: 1_000_000, source: server.url });

    now += DAY - 1;
    const fresh = await open({ dataDir, source: server.url, now: () => now });
    await fresh.idle();
    expect(server.hits).toBe(1);
    expect(fresh.lookup("claude-test-1")?.source).toBe("catalog");
    fresh.close();

    now += 2;
    const doc = sampleCatalog();
    doc.anthropic!.models["claude-test-1"]!.limit = { context: 1_000_000, output: 64_000 };
    server.answer({ document: doc });
    const stale = await open({ dataDir, source: server.url, now: () => now });
    expect(stale.lookup("claude-test-1")?.contextWindow).toBe(200_000);
    await stale.idle();
    expect(server.hits).toBe(2);
    expect(stale.lookup("claude-test-1")?.contextWindow).toBe(1_000_000);
  });

  it("applies models.json corrections over the catalog and the built-in table", async () => {
    const modelsJsonPath = join(dataDir, "models.json");
    await writeFile(
      modelsJsonPath,
      JSON.stringify({
        "gpt-4o": { cost: { input: 1 } },
        "my-local": { limit: { context: 32_768 } },
        broken: { limit: { context: "big" } },
      }),
    );
    const catalog = await open({ source: "off", modelsJsonPath });
    expect(catalog.lookup("gpt-4o")?.cost).toEqual({
      input: 1,
      output: 10,
      cacheRead: 1.25,
      cacheWrite: 2.5,
    });
    expect(catalog.lookup("my-local")).toEqual({
      id: "my-local",
      contextWindow: 32_768,
      source: "models.json",
    });
    expect(catalog.lookup("broken")).toBeUndefined();
    expect(catalog.problems.join("\n")).toMatch(/"broken" is skipped/);
  });

  it("keeps what it had when the download fails, and reports damaged files", async () => {
    server = await startFakeCatalog({ body: "<html>not json" });
    await writeFile(join(dataDir, CATALOG_CACHE_FILE), "{ damaged");
    const catalog = await open({ dataDir, source: server.url });
    await catalog.idle();
    expect(catalog.problems[0]).toMatch(/is damaged/);
    expect(catalog.problems[1]).toMatch(/catalog refresh failed/);
    expect(catalog.lookup("gpt-4o")?.source).toBe("builtin");
    server.answer({ status: 500 });
    expect(await catalog.refresh()).toBe(false);
    expect(catalog.problems.at(-1)).toMatch(/HTTP 500/);
  });

  it("never blocks on a stalled catalog, and close() aborts the download", async () => {
    server = await startFakeCatalog({ stall: true });
    const hit = server.nextHit();
    const catalog = await open({ dataDir, source: server.url });
    await hit;
    expect(catalog.lookup("gpt-4o")?.source).toBe("builtin");
    catalog.close();
    await catalog.idle();
    expect(catalog.problems).toEqual([]);
  });

  it("does not keep the process alive while a refresh hangs", async () => {
    server = await startFakeCatalog({ stall: true });
    const hit = server.nextHit();
    const script = `
      import { ModelCatalog } from ${JSON.stringify(resolve(import.meta.dirname, "catalog.ts"))};
      await ModelCatalog.open({ source: ${JSON.stringify(server.url)} });
      console.log("opened");
    `;
    const tsx = resolve(import.meta.dirname, "../../../../node_modules/.bin/tsx");
    const child = spawn(tsx, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const code = await new Promise<number | null>((done) => child.on("exit", done));
    await hit;
    expect(out.trim()).toBe("opened");
    expect(code).toBe(0);
  }, 20_000);
});
