import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProjectWalk, type ProjectWalkOptions, walkProject } from "./project-walk.js";
import { type WalkCase, generateCase } from "./walk-cases.test-helper.js";

let scratch = "";
let env: Record<string, string> = {};

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "zeng-walk-"));
  mkdirSync(join(scratch, "home"));
  // No inherited configuration: no system or global file, an empty home, no XDG folder.
  env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: join(scratch, "home"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
});

// A generous backstop: removing thousands of entries waits on a loaded disk.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

const OPTIONS: ProjectWalkOptions = {
  excludesFile: null,
  infoExclude: "",
  maxFiles: 10_000,
  maxDirs: 10_000,
};

/**
 * One `sh` for many cases, on one fresh `git init`'d folder (ls-files with an index file that
 * does not exist writes nothing there): for each case folder (holding `tree/`, `info-exclude`
 * and maybe `excludes`), its info/exclude copied in, then `ls-files -z -o --exclude-standard`
 * on its tree, into `out`.
 */
const BATCH = `repo="$1"; shift
git init -q --bare --template= "$repo" && git config --file "$repo/config" core.bare false || exit 1
mkdir "$repo/info" || exit 1
for d in "$@"; do
  cp "$d/info-exclude" "$repo/info/exclude" || exit 1
  set --
  if [ -f "$d/excludes" ]; then set -- -c "core.excludesFile=$d/excludes"; fi
  GIT_DIR="$repo" GIT_WORK_TREE="$d/tree" GIT_INDEX_FILE="$d/no-index" \\
    git -C "$d/tree" "$@" ls-files -z -o --exclude-standard > "$d/out" 2> "$d/err" || { cat "$d/err" >&2; exit 1; }
done`;

function gitListAll(caseDirs: readonly string[]): string[][] {
  const repo = join(mkdtempSync(join(scratch, "repo-")), "git");
  const run = spawnSync("sh", ["-c", BATCH, "sh", repo, ...caseDirs], { env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git batch failed: ${run.stderr}`);
  return caseDirs.map((d) => readFileSync(join(d, "out"), "utf8").split("\0").slice(0, -1));
}

function writeCase(dir: string, c: WalkCase): void {
  const tree = join(dir, "tree");
  mkdirSync(tree, { recursive: true });
  for (const entry of c.entries) {
    const path = join(tree, entry.path);
    if (entry.kind === "dir") mkdirSync(path);
    else if (entry.kind === "file") writeFileSync(path, entry.path);
    else symlinkSync(join(tree, entry.target ?? "nowhere"), path);
  }
  for (const [folder, text] of c.gitignores) writeFileSync(join(tree, folder, ".gitignore"), text);
  writeFileSync(join(dir, "info-exclude"), c.infoExclude);
  if (c.excludesFile !== null) writeFileSync(join(dir, "excludes"), c.excludesFile);
}

function describeCase(c: WalkCase): string {
  return JSON.stringify({
    seed: c.seed,
    gitignores: [...c.gitignores],
    excludesFile: c.excludesFile,
    infoExclude: c.infoExclude,
    entries: c.entries.map((e) => `${e.kind} ${e.path}`),
  });
}

/** Random cases per run; `ZENG_WALK_SEED=<n>` picks the first seed (default 1000). */
const CASES = 300;

describe("walkProject against git ls-files -o --exclude-standard", () => {
  // The timeout is a backstop for a loaded disk (about 3 s on a quiet machine).
  it(`lists what git lists for ${CASES} seeded random projects, or gives up on few of them`, {
    timeout: 120_000,
  }, () => {
    const base = Number(process.env.ZENG_WALK_SEED ?? 1_000);
    const cases = Array.from({ length: CASES }, (_, i) => generateCase(base + i));
    const dirs = cases.map((c, i) => {
      const dir = join(scratch, `random-${i}`);
      writeCase(dir, c);
      return dir;
    });
    const expected = gitListAll(dirs);
    let supported = 0;
    let filtered = 0;
    const reasons = new Map<string, number>();
    cases.forEach((c, i) => {
      const all = c.entries.filter((e) => e.kind !== "dir").length + c.gitignores.size;
      if ((expected[i]?.length ?? 0) < all) filtered++;
      const walk = walkProject(join(dirs[i] ?? "", "tree"), {
        ...OPTIONS,
        excludesFile: c.excludesFile,
        infoExclude: c.infoExclude,
      });
      if ("unsupported" in walk) {
        const reason = walk.unsupported.replace(/^.*: /, "");
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        return;
      }
      supported++;
      expect(walk.files, `seed ${c.seed}: ${describeCase(c)}`).toEqual(expected[i]);
    });
    const summary = `seeds ${base}..${base + CASES - 1}: ${supported} supported, ${filtered} with ignored files, gave up: ${JSON.stringify([...reasons])}`;
    if (process.env.ZENG_WALK_VERBOSE) console.log(summary);
    expect(supported / cases.length, summary).toBeGreaterThanOrEqual(0.9);
    // The rules must bite: most cases leave something out, so a walker listing all fails.
    expect(filtered / cases.length, summary).toBeGreaterThanOrEqual(0.5);
  });
});

/** Runs git on one tree (no excludes file, an empty info/exclude) and walkProject beside it. */
function compareOne(
  name: string,
  build: (tree: string) => void,
): { git: string[]; walk: ProjectWalk } {
  const dir = join(scratch, name);
  mkdirSync(join(dir, "tree"), { recursive: true });
  writeFileSync(join(dir, "info-exclude"), "");
  build(join(dir, "tree"));
  const [git = []] = gitListAll([dir]);
  return { git, walk: walkProject(join(dir, "tree"), OPTIONS) };
}

function files(walk: ProjectWalk): string[] {
  if ("unsupported" in walk) throw new Error(`unsupported: ${walk.unsupported}`);
  return walk.files;
}

describe("walkProject on special trees", () => {
  it("agrees with git on wildmatch's quirks: bytes for ?, ** after a literal prefix, odd brackets", () => {
    const { git, walk } = compareOne("quirks", (tree) => {
      for (const dir of ["ax/y", "a/x/y", "k/l", "m", "é"])
        mkdirSync(join(tree, dir), { recursive: true });
      const names = [
        "ax/y/b",
        "a/x/y/b",
        "k/l/b",
        "m/n",
        "é/é",
        "é/ü",
        "]",
        "-",
        "[ab",
        "f\\",
        "x ",
      ];
      for (const name of names) writeFileSync(join(tree, name), name);
      writeFileSync(
        join(tree, ".gitignore"),
        "a**/b\nk**l/b\né/?\né/??\n[]a]\n[a-]\n[ab\nf\\\nx \n!m/\nm\n",
      );
    });
    expect(git).toEqual([".gitignore", "[ab", "f\\", "k/l/b", "x "]);
    expect(files(walk)).toEqual(git);
  });

  it("lists a symlink to a folder as a file, never follows it, and folder-only patterns skip it", () => {
    const { git, walk } = compareOne("symlink-dir", (tree) => {
      mkdirSync(join(tree, "real"));
      writeFileSync(join(tree, "real", "inside.txt"), "x");
      symlinkSync(join(tree, "real"), join(tree, "link"));
      symlinkSync(join(tree, "real"), join(tree, "other"));
      writeFileSync(join(tree, ".gitignore"), "link/\n/real/\n");
    });
    expect(git).toEqual([".gitignore", "link", "other"]);
    expect(files(walk)).toEqual(git);
  });

  it("leaves out FIFOs and sockets as git does", async () => {
    const { createServer } = await import("node:net");
    const server = createServer();
    const dir = join(scratch, "fifo-tree");
    mkdirSync(join(dir, "tree", "sub"), { recursive: true });
    await new Promise<void>((resolve) => server.listen(join(dir, "tree", "sub", "sock"), resolve));
    try {
      const { git, walk } = compareOne("fifo-tree", (tree) => {
        execFileSync("mkfifo", [join(tree, "pipe"), join(tree, "sub", "pipe2")]);
        writeFileSync(join(tree, "sub", "file"), "x");
      });
      expect(git).toEqual(["sub/file"]);
      expect(files(walk)).toEqual(git);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("reads no patterns from a symlinked .gitignore or a folder named .gitignore, as git", () => {
    const { git, walk } = compareOne("odd-gitignore", (tree) => {
      writeFileSync(join(tree, "patterns"), "*.log\n");
      symlinkSync(join(tree, "patterns"), join(tree, ".gitignore"));
      writeFileSync(join(tree, "a.log"), "x");
      mkdirSync(join(tree, "sub", ".gitignore"), { recursive: true });
      writeFileSync(join(tree, "sub", ".gitignore", "b.log"), "x");
    });
    expect(git).toEqual([".gitignore", "a.log", "patterns", "sub/.gitignore/b.log"]);
    expect(files(walk)).toEqual(git);
  });

  it("skips the root's .git, whatever it holds", () => {
    const { git, walk } = compareOne("root-git", (tree) => {
      mkdirSync(join(tree, ".git", "objects"), { recursive: true });
      writeFileSync(join(tree, ".git", "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(join(tree, "a"), "x");
    });
    expect(git).toEqual(["a"]);
    expect(files(walk)).toEqual(git);
  });

  it("gives up on a nested repository, a .git folder or file below the root", () => {
    const { git, walk } = compareOne("nested-git", (tree) => {
      mkdirSync(join(tree, "sub"));
      execFileSync("git", ["init", "-q", join(tree, "sub")], { env });
      writeFileSync(join(tree, "sub", "x"), "x");
    });
    expect(git).toEqual(["sub/"]);
    expect(walk).toHaveProperty("unsupported");
    const { walk: gitFile } = compareOne("nested-git-file", (tree) => {
      mkdirSync(join(tree, "deep", "sub"), { recursive: true });
      writeFileSync(join(tree, "deep", "sub", ".git"), "gitdir: /nowhere\n");
    });
    expect(gitFile).toHaveProperty("unsupported");
  });

  it("gives up past maxFiles or maxDirs, and not at them", () => {
    const tree = join(scratch, "limits");
    mkdirSync(join(tree, "a", "b"), { recursive: true });
    for (const f of ["x", "a/y", "a/b/z"]) writeFileSync(join(tree, f), f);
    const walk = (maxFiles: number, maxDirs: number) =>
      walkProject(tree, { ...OPTIONS, maxFiles, maxDirs });
    expect(files(walk(3, 3))).toEqual(["a/b/z", "a/y", "x"]);
    expect(walk(2, 3)).toEqual({ unsupported: "more than 2 files" });
    expect(walk(3, 2)).toEqual({ unsupported: "more than 2 folders" });
    // A folder of ignored files lists nothing, but reading it still counts.
    mkdirSync(join(tree, "logs"));
    writeFileSync(join(tree, ".gitignore"), "*.log\n");
    for (let i = 0; i < 40; i++) writeFileSync(join(tree, "logs", `${i}.log`), "");
    expect(files(walk(6, 5))).toEqual([".gitignore", "a/b/z", "a/y", "x"]);
    expect(walk(5, 5)).toEqual({ unsupported: "more than 40 entries read" });
  });

  it("gives up on a name that is not UTF-8 and on a .gitignore over 1 MiB", () => {
    const tree = join(scratch, "latin1");
    mkdirSync(tree);
    writeFileSync(Buffer.concat([Buffer.from(`${tree}/caf`), Buffer.from([0xe9])]), "x");
    expect(walkProject(tree, OPTIONS)).toHaveProperty("unsupported");
    const big = join(scratch, "big-ignore");
    mkdirSync(big);
    writeFileSync(join(big, ".gitignore"), `${"x".repeat(1024 * 1024)}\n`);
    expect(walkProject(big, OPTIONS)).toHaveProperty("unsupported");
  });

  it("returns at once on a FIFO named .gitignore, where git would block for ever", async () => {
    const tree = join(scratch, "fifo-ignore");
    mkdirSync(tree);
    execFileSync("mkfifo", [join(tree, ".gitignore")]);
    writeFileSync(join(tree, "a"), "x");
    // A watchdog: should the walk ever open the FIFO, this writer releases it after 3 s with
    // a pattern that hides every file, so the test fails on the result instead of hanging.
    const watchdog = spawn("sh", ["-c", 'sleep 3; echo "*" > .gitignore'], {
      cwd: tree,
      stdio: "ignore",
      detached: true,
    });
    try {
      const start = Date.now();
      const walk = walkProject(tree, OPTIONS);
      expect(Date.now() - start).toBeLessThan(3_000);
      expect(files(walk)).toEqual(["a"]);
    } finally {
      // Its own process group (sh and its sleep), ended by its id.
      if (watchdog.pid !== undefined) process.kill(-watchdog.pid, "SIGKILL");
    }
  });
});
