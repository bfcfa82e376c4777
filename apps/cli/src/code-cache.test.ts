import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheFileFor } from "./code-cache.js";

/** A CommonJS bundle as scripts/bundle.mjs writes one: its import() goes through __zengImport. */
const BUNDLE = `(function (exports, require, module, __filename, __dirname, __zengImport) {
"use strict";
const { basename } = require("node:path");
function work(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; }
module.exports = {
  name: basename(__filename),
  sum: work(1000),
  later: () => __zengImport("node:path").then((m) => m.sep),
};
})`;

const CODE_CACHE = fileURLToPath(new URL("./code-cache.ts", import.meta.url));

/**
 * Loads `bundle` in a fresh Node process (V8 also caches compiled scripts in memory, so a
 * second load in one process would say nothing about the file), calls its dynamic import,
 * saves, and reports what it saw.
 */
async function loadInChild(bundle: string, cacheDir: string | null) {
  const script = `
    const { loadCached } = await import(${JSON.stringify(CODE_CACHE)});
    const m = loadCached(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir ?? undefined)}, (s) => import(s));
    const sep = await m.exports.later();
    m.save();
    console.log(JSON.stringify({ cache: m.cache, name: m.exports.name, sum: m.exports.sum, sep }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: fileURLToPath(new URL("..", import.meta.url)) },
  );
  return JSON.parse(stdout) as { cache: string; name: string; sum: number; sep: string };
}

describe("loadCached", () => {
  let dir: string;
  let bundle: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "zeng-code-cache-"));
    bundle = join(dir, "headless-abc.cjs");
    await writeFile(bundle, BUNDLE);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("compiles without a cache, writes one, and the next process uses it (import() works)", async () => {
    const cacheDir = join(dir, "data", "code-cache");
    const ran = { name: "headless-abc.cjs", sum: 499500, sep: "/" };
    expect(await loadInChild(bundle, cacheDir)).toEqual({ cache: "miss", ...ran });
    expect(await readdir(cacheDir)).toEqual([
      cacheFileFor(bundle, cacheDir).slice(cacheDir.length + 1),
    ]);
    expect(await loadInChild(bundle, cacheDir)).toEqual({ cache: "hit", ...ran });
  });

  it("runs without the cache when V8 rejects the file, and replaces it", async () => {
    const cacheDir = join(dir, "code-cache");
    await loadInChild(bundle, cacheDir);
    await writeFile(cacheFileFor(bundle, cacheDir), Buffer.from("not a code cache, just bytes"));
    expect((await loadInChild(bundle, cacheDir)).cache).toBe("miss");
    expect((await loadInChild(bundle, cacheDir)).cache).toBe("hit");
  });

  it("runs with no cache folder, and a cache that cannot be written is no failure", async () => {
    expect((await loadInChild(bundle, null)).cache).toBe("off");
    // A file where the data folder should be: the write fails, the run does not.
    const blocked = join(dir, "blocked");
    await writeFile(blocked, "");
    const run = await loadInChild(bundle, join(blocked, "code-cache"));
    expect(run).toMatchObject({ cache: "miss", sum: 499500, sep: "/" });
  });
});
