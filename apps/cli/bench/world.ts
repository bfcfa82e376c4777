import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createFixtureRepo,
  type FakeProvider,
  type FixtureFiles,
  type FixtureRepo,
} from "@z-engine/testkit";

/**
 * The built bin the benchmarks run, as users do (dist/zeng.cjs, which imports dist/main.js for
 * every command but `-p`); BENCH_MAIN: another build's entry, to compare.
 */
export const MAIN =
  process.env.BENCH_MAIN ?? join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "zeng.cjs");

let sharedCodeCache: string | undefined;

/**
 * One code-cache folder for every home of this bench process (removed when it exits): a
 * user's data folder keeps the V8 code cache between runs (src/code-cache.ts), so each
 * fresh bench home links `data/code-cache` here, and only a bench's first run compiles.
 */
function codeCacheFolder(): string {
  if (sharedCodeCache === undefined) {
    const dir = mkdtempSync(join(tmpdir(), "zeng-bench-code-cache-"));
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    sharedCodeCache = dir;
  }
  return sharedCodeCache;
}

/**
 * A temporary home (catalog off, optional extra settings, the bench process's shared code
 * cache) and a project (default one file).
 */
export async function benchHome(
  settings = "",
  files: FixtureFiles = { "README.md": "# bench\n" },
): Promise<{
  home: string;
  repo: FixtureRepo;
  env(provider: FakeProvider): Record<string, string>;
  dispose(): Promise<void>;
}> {
  const home = await mkdtemp(join(tmpdir(), "zeng-bench-"));
  await mkdir(join(home, "config"), { recursive: true });
  await writeFile(join(home, "config", "settings.toml"), `[catalog]\nsource = "off"\n${settings}`);
  await mkdir(join(home, "data"), { recursive: true });
  await symlink(codeCacheFolder(), join(home, "data", "code-cache"));
  const repo = await createFixtureRepo({ files });
  return {
    home,
    repo,
    env: (provider) => ({
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      ZENGINE_HOME: join(home, "data"),
      ZENGINE_CONFIG_HOME: join(home, "config"),
      ZENGINE_PROVIDER: "anthropic",
      ZENGINE_BASE_URL: provider.anthropicBaseUrl,
      ZENGINE_API_KEY: "bench-key",
      // `ZENGINE_CODE_CACHE=off pnpm bench` measures without the code cache.
      ...(process.env.ZENGINE_CODE_CACHE
        ? { ZENGINE_CODE_CACHE: process.env.ZENGINE_CODE_CACHE }
        : {}),
    }),
    dispose: async () => {
      await repo.dispose();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Runs `program args` (default node) in `cwd` and resolves with its exit code, stdout and stderr. */
export function run(
  args: readonly string[],
  env: Record<string, string>,
  cwd: string,
  program: string = process.execPath,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env, cwd, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
