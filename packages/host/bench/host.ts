// Benchmarks for @z-engine/host (design.md §7): host.snapshot, host.fingerprint, host.restore.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCheckpointStore, fingerprint } from "../src/index.js";
import { benchWorktree } from "./worktree.js";

const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir() };

function makeTree(root: string, files: number): void {
  const perDir = 100;
  for (let i = 0; i < files; i++) {
    const dir = join(root, `d${Math.floor(i / perDir)}`);
    if (i % perDir === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n${"x".repeat(i % 200)}\n`);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(run: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

let round = 0;
function touchThree(root: string): void {
  round++;
  for (const i of [5, 5_005, 9_995]) {
    writeFileSync(join(root, `d${Math.floor(i / 100)}`, `f${i}.txt`), `changed ${round}\n`);
  }
}

const RAW_GIT = `set -e
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b
git add -A
tree=$(git write-tree)
parent=$(git rev-parse -q --verify refs/bench 2>/dev/null || true)
if [ -n "$parent" ]; then c=$(echo m | git commit-tree "$tree" -p "$parent"); else c=$(echo m | git commit-tree "$tree"); fi
git update-ref refs/bench "$c"
`;

async function benchSnapshot(root: string, scratch: string): Promise<void> {
  const store = createCheckpointStore({
    checkpointsDir: join(scratch, "cp"),
    projectRoot: root,
    env,
  });
  const rawDir = join(scratch, "raw.git");
  execFileSync("git", ["init", "-q", "--bare", rawDir], { env });
  const rawEnv = {
    ...env,
    GIT_DIR: rawDir,
    GIT_WORK_TREE: root,
    GIT_INDEX_FILE: join(scratch, "raw-index"),
  };
  const raw = () =>
    execFileSync("sh", ["-c", RAW_GIT], { cwd: root, env: rawEnv, stdio: "ignore" });
  await store.snapshot("warm-up");
  raw();
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 21; i++) {
    touchThree(root);
    ours.push(await time(() => store.snapshot(`run ${i}`)));
    touchThree(root);
    base.push(await time(raw));
  }
  const [o, b] = [median(ours), median(base)];
  console.log(
    "workload: snapshot of a 10,000-file tree (no file over 8 MiB) after changing 3 files; baseline raw git add -A, write-tree, commit-tree, update-ref with a separate index; 21 runs, median",
  );
  console.log(
    `BENCH host.snapshot ${o.toFixed(1)} ms baseline=${b.toFixed(1)} ratio=${(o / b).toFixed(2)}`,
  );
}

async function benchRestore(root: string, scratch: string): Promise<void> {
  const store = createCheckpointStore({
    checkpointsDir: join(scratch, "cp-restore"),
    projectRoot: root,
    env,
  });
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const snap = await store.snapshot("target");
    if ("disabled" in snap) throw new Error(snap.disabled);
    touchThree(root);
    times.push(await time(() => store.restore(snap.commit)));
  }
  console.log(
    "workload: restore of a snapshot that differs in 3 files of 10,000 (includes the safety snapshot); 11 runs, median",
  );
  console.log(`BENCH host.restore ${median(times).toFixed(1)} ms`);
}

async function benchFingerprint(scratch: string): Promise<void> {
  const root = join(scratch, "fp");
  makeTree(root, 50_000);
  execFileSync("git", ["init", "-q"], { cwd: root, env });
  execFileSync("git", ["add", "-A"], { cwd: root, env });
  // A warm repository: its index was refreshed after the files were last written, so git's
  // stat check does not have to re-read "racily clean" files (as right after a mass write).
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  execFileSync("git", ["status", "--porcelain"], { cwd: root, env, stdio: "ignore" });
  await fingerprint(root, { env });
  const times: number[] = [];
  for (let i = 0; i < 11; i++) times.push(await time(() => fingerprint(root, { env })));
  console.log(
    "workload: fingerprint of a 50,000-file git work tree (tracked, index refreshed), warm; 11 runs, median",
  );
  console.log(`BENCH host.fingerprint ${median(times).toFixed(1)} ms`);
}

const RAW_FIRST = `set -e
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@b GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@b
env -u GIT_WORK_TREE git init -q --bare "$GIT_DIR"
git add -A
tree=$(git write-tree)
c=$(echo m | git commit-tree "$tree")
git update-ref refs/bench "$c"
`;

// The first snapshot of a session's project (issue 18): a fresh shadow repository (as on a
// project's first session) and a warm one (a later session: the store is new, the
// repository exists), against raw git doing init (fresh only), add, write-tree, commit-tree
// and update-ref in one shell.
async function benchFirstSnapshot(scratch: string): Promise<void> {
  const root = join(scratch, "small");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(join(root, "test"), { recursive: true });
  writeFileSync(join(root, "package.json"), '{"name":"small","scripts":{"test":"node --test"}}\n');
  writeFileSync(join(root, "README.md"), "# small\n");
  writeFileSync(join(root, ".gitignore"), "node_modules/\n");
  writeFileSync(join(root, "src", "sum.js"), "export const sum = (a, b) => a - b;\n");
  writeFileSync(join(root, "test", "sum.test.js"), "import './../src/sum.js';\n");
  execFileSync("git", ["init", "-q"], { cwd: root, env });
  const fresh: number[] = [];
  const warm: number[] = [];
  const warmed: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 12; i++) {
    const dir = join(scratch, `first-${i}`);
    const open = () => createCheckpointStore({ checkpointsDir: dir, projectRoot: root, env });
    fresh.push(await time(() => open().snapshot("first")));
    warm.push(await time(() => open().snapshot("second")));
    // What a session's turn pays: the store was warmed when the session opened.
    const ahead = createCheckpointStore({
      checkpointsDir: join(scratch, `warmed-${i}`),
      projectRoot: root,
      env,
    });
    await ahead.warm();
    warmed.push(await time(() => ahead.snapshot("first")));
    const rawEnv = { ...env, GIT_DIR: join(dir, "raw.git"), GIT_WORK_TREE: root };
    base.push(
      await time(() =>
        execFileSync("sh", ["-c", RAW_FIRST], { cwd: root, env: rawEnv, stdio: "ignore" }),
      ),
    );
  }
  const [f, w, b] = [median(fresh.slice(2)), median(warm.slice(2)), median(base.slice(2))];
  const a = median(warmed.slice(2));
  console.log(
    "workload: first snapshot of a 5-file git project by a new store, into a fresh shadow repository, into an existing one, and into a fresh one after warm() (timed from snapshot(), as a session's first turn pays it); baseline raw git init, add -A, write-tree, commit-tree, update-ref in one sh; 10 runs after 2 warm-ups, median",
  );
  console.log(
    `BENCH host.firstSnapshot ${f.toFixed(1)} ms baseline=${b.toFixed(1)} ratio=${(f / b).toFixed(2)}`,
  );
  console.log(
    `BENCH host.firstSnapshotWarm ${w.toFixed(1)} ms baseline=${b.toFixed(1)} ratio=${(w / b).toFixed(2)}`,
  );
  console.log(
    `BENCH host.firstSnapshotWarmed ${a.toFixed(1)} ms baseline=${b.toFixed(1)} ratio=${(a / b).toFixed(2)}`,
  );
  await benchSmallFingerprint(root);
}

const RAW_LIST = `git ls-files -z --cached >/dev/null && git ls-files -z -o --exclude-standard >/dev/null`;

// The turn's start fingerprint of the same small project (issue 18: the first tool that may
// write waits for it), against raw git listing what it lists (tracked, then untracked).
async function benchSmallFingerprint(root: string): Promise<void> {
  execFileSync("git", ["add", "-A"], { cwd: root, env });
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < 22; i++) {
    ours.push(await time(() => fingerprint(root, { env })));
    base.push(
      await time(() => execFileSync("sh", ["-c", RAW_LIST], { cwd: root, env, stdio: "ignore" })),
    );
  }
  const [f, b] = [median(ours.slice(2)), median(base.slice(2))];
  console.log(
    "workload: start fingerprint of the same 5-file git project (files staged), warm; baseline raw git ls-files --cached and ls-files -o --exclude-standard in one sh; 20 runs after 2 warm-ups, median",
  );
  console.log(
    `BENCH host.firstFingerprint ${f.toFixed(1)} ms baseline=${b.toFixed(1)} ratio=${(f / b).toFixed(2)}`,
  );
}

// `tsx bench/host.ts [first] [snapshot] [restore] [fingerprint] [worktree]` runs only those (default: all).
const only = new Set(process.argv.slice(2));
const wanted = (name: string) => only.size === 0 || only.has(name);
const scratch = mkdtempSync(join(tmpdir(), "zeng-host-bench-"));
try {
  const root = join(scratch, "tree");
  if (wanted("first")) await benchFirstSnapshot(scratch);
  if (wanted("snapshot") || wanted("restore")) makeTree(root, 10_000);
  if (wanted("snapshot")) await benchSnapshot(root, scratch);
  if (wanted("restore")) await benchRestore(root, scratch);
  if (wanted("fingerprint")) await benchFingerprint(scratch);
  if (wanted("worktree")) await benchWorktree(scratch, env, makeTree);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
