// BENCH agents.worktree: create + commit + apply + remove of a worktree agent's 3-file change.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyAgentCommit,
  commitAgentWorktree,
  createAgentWorktree,
  removeAgentWorktree,
} from "../src/index.js";

const THREE = [5, 5_005, 9_995].map((i) => join(`d${Math.floor(i / 100)}`, `f${i}.txt`));

// The same steps with raw git: worktree on a new branch, commit there, the diff applied to
// the project (git apply --3way), the worktree and branch removed.
const RAW = `set -e
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b
wt=.z-engine/worktrees/raw
base=$(git rev-parse HEAD)
git worktree add -q -b raw-branch "$wt" "$base"
for f in ${THREE.join(" ")}; do echo "raw change $1" >> "$wt/$f"; done
git -C "$wt" add -A
git -C "$wt" commit -q -m raw
git diff --binary "$base" raw-branch | git apply --3way
git worktree remove --force "$wt"
git branch -D -q raw-branch
git reset -q --hard
`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function ours(root: string, env: Record<string, string>, round: number): Promise<void> {
  const gitDir = join(root, "..", "wt-session", "bench", "git");
  const wt = await createAgentWorktree(root, "bench", gitDir, { env });
  for (const f of THREE) writeFileSync(join(wt.path, f), `ours change ${round}\n`, { flag: "a" });
  const summary = await commitAgentWorktree(wt, { env });
  if (!summary.commit) throw new Error("nothing committed");
  const result = await applyAgentCommit(wt, summary.commit, { env });
  if (!result.applied) throw new Error("conflict");
  await removeAgentWorktree(wt);
  execFileSync("git", ["reset", "-q", "--hard"], { cwd: root, env });
}

/** Runs the worktree benchmark on a committed 10,000-file repository at `root`. */
export async function benchWorktree(
  scratch: string,
  env: Record<string, string>,
  makeTree: (root: string, files: number) => void,
): Promise<void> {
  const root = join(scratch, "wt-repo");
  mkdirSync(root, { recursive: true });
  makeTree(root, 10_000);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, env, stdio: "ignore" });
  const identity = {
    ...env,
    GIT_AUTHOR_NAME: "b",
    GIT_AUTHOR_EMAIL: "b@b",
    GIT_COMMITTER_NAME: "b",
    GIT_COMMITTER_EMAIL: "b@b",
  };
  execFileSync("git", ["init", "-q"], { cwd: root, env });
  git("add", "-A");
  execFileSync("git", ["commit", "-q", "-m", "init"], { cwd: root, env: identity });
  const raw = (round: number) =>
    execFileSync("sh", ["-c", RAW, "sh", String(round)], { cwd: root, env, stdio: "ignore" });
  const time = async (run: () => Promise<unknown> | unknown) => {
    const start = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  await ours(root, env, 0);
  raw(0);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 1; i <= 5; i++) {
    a.push(await time(() => ours(root, env, i)));
    b.push(await time(() => raw(i)));
  }
  const [o, r] = [median(a), median(b)];
  console.log(
    "workload: worktree agent on a committed 10,000-file repository: create the worktree (a checkout on a new branch of the engine's own repository, the project's objects by alternates), change 3 files, commit, apply to the project by three-way merge, remove; baseline the same steps with raw git (worktree add, add, commit, diff | apply --3way, worktree remove, branch -D); 5 runs, median",
  );
  console.log(
    `BENCH agents.worktree ${o.toFixed(1)} ms baseline=${r.toFixed(1)} ratio=${(o / r).toFixed(2)}`,
  );
}
