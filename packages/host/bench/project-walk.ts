// BENCH host.projectWalk: the in-process listing of a small project's files (walkProject)
// against spawning `git ls-files -z -o --exclude-standard` on a shadow repository.
// Run: `pnpm exec tsx packages/host/bench/project-walk.ts` (from the repository root).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walkProject } from "../src/checkpoint/project-walk.js";
import { median, time } from "./timing.js";

const RUNS = 51;

/** The 5-file project of the first round, plus a node_modules folder that must not be entered. */
function makeProject(root: string): void {
  for (const dir of ["src/auth", "test"]) mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, "package.json"), '{ "name": "demo", "type": "module" }\n');
  writeFileSync(join(root, "README.md"), "# demo\n");
  writeFileSync(join(root, ".gitignore"), "node_modules/\n");
  writeFileSync(join(root, "src/auth/token.js"), "export const token = () => 'x';\n");
  writeFileSync(join(root, "test/token.test.js"), "import '../src/auth/token.js';\n");
  for (let p = 0; p < 30; p++) {
    const pkg = join(root, "node_modules", `pkg-${p}`, "lib");
    mkdirSync(pkg, { recursive: true });
    for (let f = 0; f < 10; f++) writeFileSync(join(pkg, `f${f}.js`), `module.exports = ${f};\n`);
  }
}

const scratch = mkdtempSync(join(tmpdir(), "zeng-walk-bench-"));
try {
  const root = join(scratch, "project");
  const home = join(scratch, "home");
  mkdirSync(home);
  makeProject(root);
  const gitDir = join(scratch, "shadow.git");
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  execFileSync("git", ["init", "-q", "--bare", gitDir], { env });
  const gitEnv = {
    ...env,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: root,
    GIT_INDEX_FILE: join(scratch, "none"),
  };
  const git = () =>
    execFileSync("git", ["ls-files", "-z", "-o", "--exclude-standard"], { cwd: root, env: gitEnv });
  const options = { excludesFile: null, infoExclude: "", maxFiles: 2_000, maxDirs: 200 };
  const walk = () => {
    const result = walkProject(root, options);
    if (!("files" in result)) throw new Error(`unsupported: ${result.unsupported}`);
    return result.files;
  };
  const fromGit = git().toString("utf8").split("\0").slice(0, -1);
  if (JSON.stringify(fromGit) !== JSON.stringify(walk()) || fromGit.length !== 5) {
    throw new Error(`the listings differ: git ${fromGit.join(", ")}; walk ${walk().join(", ")}`);
  }
  const measure = (label: string, name: string) => {
    const ours: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(time(walk));
      base.push(time(git));
    }
    const [o, b] = [median(ours), median(base)];
    console.log(
      `workload: list a 5-file project (package.json, README.md, .gitignore "node_modules/", src/auth/token.js, test/token.test.js) beside a 300-file node_modules that must not be entered; walkProject in process vs spawning git ls-files -z -o --exclude-standard on a shadow repository (no config, empty index) from ${label}; ${RUNS} runs each, interleaved, median`,
    );
    console.log(
      `BENCH ${name} ${o.toFixed(2)} ms baseline=${b.toFixed(2)} ratio=${(o / b).toFixed(3)}`,
    );
  };
  measure("this small Node process", "host.projectWalk");
  // A spawn costs more from a large process (the engine's holds a few hundred MB): the same
  // again with about 400 MB of live objects held.
  const held: { a: number; b: string }[][] = [];
  for (let i = 0; i < 40; i++)
    held.push(Array.from({ length: 100_000 }, (_, j) => ({ a: j, b: `x${j}` })));
  const rss = Math.round(process.memoryUsage().rss / 1e6);
  measure(`the same process holding ${rss} MB (rss)`, "host.projectWalkLargeProcess");
  if (held.length !== 40) throw new Error("unreachable");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
