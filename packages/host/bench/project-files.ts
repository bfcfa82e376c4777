// BENCH host.projectFiles: the project-files door (createProjectFileReader) against plain
// `node:fs` doing the same reads: what the door's checks (real path, regular file, roots,
// rules callback, the O_NOFOLLOW open checked against what was admitted) cost per file.
// Run: `pnpm exec tsx packages/host/bench/project-files.ts` (from the repository root).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { lstat, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProjectFileReader } from "../src/project-files/project-file-reader.js";

const FILES = 2000;
const RUNS = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function measure(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await time(run));
  return median(times);
}

const scratch = realpathSync(mkdtempSync(join(tmpdir(), "zeng-door-bench-")));
try {
  const paths: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const dir = join(scratch, `pkg-${i % 40}`, "src");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `file-${i}.ts`);
    writeFileSync(path, `export function f${i}(): number {\n  return ${i};\n}\n`.repeat(20));
    paths.push(path);
  }
  // The rules callback stands for the engine's: one decide() per file is policy's cost, not the door's.
  const door = createProjectFileReader({ roots: [scratch], rules: () => undefined });
  const all = <T>(f: (p: string) => Promise<T>) => Promise.all(paths.map(f));
  const admit = await measure(() => all((p) => door.admit(p)));
  const admitBase = await measure(() => all((p) => lstat(p)));
  const read = await measure(() => all((p) => door.readText(p)));
  const readBase = await measure(() => all((p) => readFile(p, "utf8")));
  console.log(
    `workload: ${FILES} files of 1.1 KB in 40 folders, all at once (median of ${RUNS}); admit = real path, stat, roots, rules; baseline = lstat of each`,
  );
  console.log(
    `BENCH host.projectFiles.admit ${admit.toFixed(1)} ms baseline=${admitBase.toFixed(1)} ratio=${(admit / admitBase).toFixed(2)}`,
  );
  console.log(
    `workload: the same files read as text; readText = admit, O_NOFOLLOW open, checks on the open file, bounded read; baseline = readFile of each`,
  );
  console.log(
    `BENCH host.projectFiles.readText ${read.toFixed(1)} ms baseline=${readBase.toFixed(1)} ratio=${(read / readBase).toFixed(2)}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
