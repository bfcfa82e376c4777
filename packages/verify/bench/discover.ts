// Benchmark: discovery over a monorepo of 500 packages (design.md §7, figure verify.discover).
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plainFileReader } from "@z-engine/testkit";
import { discoverChecks } from "../src/index.js";

const PACKAGES = 500;
const RUNS = 30;

async function write(path: string, text: string) {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text);
}

/** 500 packages in groups two and three folders deep, each with sources and an ignored node_modules. */
async function createMonorepo(root: string): Promise<void> {
  await write(
    join(root, "package.json"),
    JSON.stringify({ private: true, scripts: { test: "turbo test", lint: "biome check ." } }),
  );
  await write(join(root, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
  await write(join(root, "Cargo.toml"), '[workspace]\nmembers = ["crates/*"]\n');
  await Promise.all(
    Array.from({ length: PACKAGES }, async (_, i) => {
      const group = i % 5 === 0 ? `libs/group-${i % 7}` : i % 2 === 0 ? "apps" : "packages";
      const dir = join(root, group, `pkg-${i}`);
      const scripts = {
        build: "tsc -b",
        test: "vitest run",
        lint: "biome check .",
        typecheck: "tsc --noEmit",
        dev: "vite",
      };
      await write(
        join(dir, "package.json"),
        JSON.stringify({ name: `pkg-${i}`, version: "1.0.0", scripts }, null, 2),
      );
      await write(join(dir, "tsconfig.json"), "{}");
      for (let f = 0; f < 5; f++)
        await write(join(dir, "src", `file-${f}.ts`), `export const x${f} = ${f};\n`);
      await write(
        join(dir, "node_modules", "dep", "package.json"),
        JSON.stringify({ scripts: { test: "x" } }),
      );
      if (i % 25 === 0)
        await write(
          join(root, "crates", `crate-${i}`, "Cargo.toml"),
          `[package]\nname = "c${i}"\n`,
        );
    }),
  );
}

const files = plainFileReader();

async function main() {
  const root = await mkdtemp(join(tmpdir(), "zeng-verify-bench-"));
  try {
    await createMonorepo(root);
    const first = await discoverChecks(root, { files });
    for (let i = 0; i < 5; i++) await discoverChecks(root, { files });
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await discoverChecks(root, { files });
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    console.log(
      `workload: discoverChecks over a pnpm monorepo of ${PACKAGES} packages (2-3 folders deep, 5 sources and a node_modules each, 20 crates), ${first.checks.length} checks found; median of ${RUNS} runs after 5 warm-ups`,
    );
    console.log(`BENCH verify.discover ${median.toFixed(1)} ms`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
