// Benchmarks for @z-engine/tools (design.md §7): Grep and Glob against bare ripgrep in the
// same run, and an Edit of one line in a 10 MB file.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { editTool, findRipgrep, globTool, grepTool, readTool, runTool } from "../src/index.js";
import { testCtx } from "../src/test-support/ctx.js";
import { readDeniedBy, testDecideContext, testRules } from "../src/test-support/gate.js";

/** Read deny rules as a careful user sets them: every Grep and Glob result is checked against them. */
const READ_DENY = ["Read(./.env)", "Read(./secrets/**)", "Read(**/*.pem)", "Read(~/.ssh/**)"];

const WARMUP = 2;
const REPEAT = 11;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function measure(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARMUP; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) times.push(await timed(fn));
  return median(times);
}

/** Runs the subject and its baseline alternately, so load drift hits both alike; medians of each. */
async function measurePair(
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
): Promise<[number, number]> {
  for (let i = 0; i < WARMUP; i++) {
    await subject();
    await baseline();
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    a.push(await timed(subject));
    b.push(await timed(baseline));
  }
  return [median(a), median(b)];
}

function runRg(rg: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

async function makeTree(root: string): Promise<void> {
  const body = (i: number) =>
    Array.from(
      { length: 40 },
      (_, line) =>
        `export const value${line} = ${i * line}; // ${line % 7 === 0 && i % 10 === 0 ? `needle${i}` : "plain"}`,
    ).join("\n");
  for (let d = 0; d < 200; d++) {
    const folder = join(root, `pkg${d}`, "src");
    await mkdir(folder, { recursive: true });
    await Promise.all(
      Array.from({ length: 100 }, (_, f) =>
        writeFile(join(folder, `file${f}.ts`), body(d * 100 + f)),
      ),
    );
  }
}

function report(name: string, value: number, unit: string, baseline?: number): void {
  const extra =
    baseline === undefined
      ? ""
      : ` baseline=${baseline.toFixed(2)} ratio=${(value / baseline).toFixed(2)}`;
  console.log(`BENCH tools.${name} ${value.toFixed(2)} ${unit}${extra}`);
}

async function main(): Promise<void> {
  const rg = await findRipgrep(undefined);
  if (!rg) throw new Error("ripgrep is needed for the baseline");
  const root = await realpath(await mkdtemp(join(tmpdir(), "zeng-bench-tools-")));
  try {
    await makeTree(root);
    const readDenied = readDeniedBy(
      testRules({ deny: READ_DENY }, root),
      testDecideContext(root, join(root, "home")),
    );
    const ctx = testCtx({ root, limits: { maxOutputChars: 10_000_000 }, readDenied });

    console.log(
      `workload: Grep files_with_matches 'needle\\d+' over 20,000 files (200 x 100 .ts, 40 lines each), results checked against ${READ_DENY.length} Read deny rules, vs rg -l with the same flags`,
    );
    const [grep, rgGrep] = await measurePair(
      () => runTool(grepTool, { pattern: "needle\\d+" }, ctx),
      () =>
        runRg(
          rg,
          [
            "--no-config",
            "--color",
            "never",
            "--no-heading",
            "--with-filename",
            "--null",
            "--files-with-matches",
            "-e",
            "needle\\d+",
          ],
          root,
        ),
    );
    report("grep", grep, "ms", rgGrep);

    console.log(
      "workload: Glob '**/*.ts' over the same 20,000 files, the same deny rules, vs rg --files --sortr modified",
    );
    const [glob, rgGlob] = await measurePair(
      () => runTool(globTool, { pattern: "**/*.ts" }, ctx),
      () => runRg(rg, ["--files", "--sortr", "modified"], root),
    );
    report("glob", glob, "ms", rgGlob);

    console.log(
      "workload: Edit of one line in a 10 MB file (100,000 lines of 100 bytes), alternating two replacements",
    );
    const big = join(root, "big.txt");
    await writeFile(
      big,
      `${`${"x".repeat(99)}\n`.repeat(50_000)}needle\n${`${"y".repeat(99)}\n`.repeat(50_000)}`,
    );
    await runTool(readTool, { file_path: big, limit: 1 }, ctx);
    let flip = false;
    const edit = await measure(async () => {
      const [from, to] = flip ? ["found", "needle"] : ["needle", "found"];
      flip = !flip;
      const out = await runTool(
        editTool,
        { file_path: big, old_string: `\n${from}\n`, new_string: `\n${to}\n` },
        ctx,
      );
      if (out.isError) throw new Error(JSON.stringify(out.content));
    });
    report("edit", edit, "ms");
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
