// BENCH host.nestedGitRescan / host.nestedGitFirstScan: the sandbox's search for nested .git
// folders before each sandboxed command (src/sandbox/nested-git.ts), on a project of 5,000
// folders (50 of them vendored repositories with a .git), against `find ROOT -name .git
// -prune` doing the same search in the same run. The rescan is the per-command cost (one
// lstat per folder, nothing changed); the first scan lists every folder.
// Run: `pnpm exec tsx packages/host/bench/nested-git.ts` (from the repository root).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NestedGitScanner } from "../src/sandbox/nested-git.js";
import { median, time } from "./timing.js";

const RUNS = 21;
const FOLDERS = 5_000;

function makeProject(root: string): void {
  for (let i = 0; i < FOLDERS; i++) {
    const dir = join(root, `p${i % 50}`, `d${Math.floor(i / 50) % 10}`, `f${i}`);
    mkdirSync(dir, { recursive: true });
    if (i % 100 === 0) mkdirSync(join(root, `p${i % 50}`, ".git"), { recursive: true });
  }
}

const scratch = mkdtempSync(join(tmpdir(), "zeng-nested-git-bench-"));
try {
  const root = join(scratch, "project");
  makeProject(root);
  const find = () => execFileSync("find", [root, "-name", ".git", "-prune"]);
  const first: number[] = [];
  const rescan: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < 3; i++) new NestedGitScanner().scan([root]);
  for (let i = 0; i < RUNS; i++) {
    const scanner = new NestedGitScanner();
    first.push(time(() => scanner.scan([root])));
    rescan.push(time(() => scanner.scan([root])));
    baseline.push(time(find));
  }
  const base = median(baseline);
  console.log(`workload: ${FOLDERS} folders, 50 nested .git, median of ${RUNS}`);
  for (const [name, values] of [
    ["host.nestedGitFirstScan", first],
    ["host.nestedGitRescan", rescan],
  ] as const) {
    const value = median(values);
    console.log(
      `BENCH ${name} ${value.toFixed(2)} ms baseline=${base.toFixed(2)} ratio=${(value / base).toFixed(2)}`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
