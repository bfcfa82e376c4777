import { execFile } from "node:child_process";
import { link, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepoIndex } from "./repo-index.js";
import { renderRepoMap } from "./repo-map.js";

const exec = promisify(execFile);
const SECRET = "LEAKED_SECRET_VALUE";

// Issue 38, items 8 and 12: what a listed path leads to is never read by the map, and nothing
// it is handed can block it or make it read for ever. (The engine hands real paths admitted by
// the project-files door; these are the files that changed, or were planted, since.)
let dir: string;
let root: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-mapread-")));
  root = join(dir, "project");
  await mkdir(join(root, "src"), { recursive: true });
  await mkdir(join(dir, "home"));
  await writeFile(join(dir, "home", "keys.ts"), `export const apiKey = "${SECRET}";\n`);
  await writeFile(join(root, "src", "ok.ts"), "export function visible(): number { return 1; }\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function mapOf(paths: string[]): Promise<string> {
  const index = new RepoIndex({ root });
  await index.update(paths);
  return renderRepoMap(index.files, { tokens: 2000 }).text;
}

describe("the repo map's reads", { timeout: 30_000 }, () => {
  it("never follows a link or reads a file with other hard links", async () => {
    await symlink(join(dir, "home", "keys.ts"), join(root, "src", "leak.ts"));
    await mkdir(join(root, "lib"));
    await link(join(dir, "home", "keys.ts"), join(root, "lib", "hard.ts"));
    const map = await mapOf(["src/ok.ts", "src/leak.ts", "lib/hard.ts"]);
    expect(map).toContain("visible");
    expect(map).not.toContain(SECRET);
    expect(map).not.toContain("apiKey");
  });

  it("skips a FIFO without blocking, directly or through a link", async () => {
    await exec("mkfifo", [join(root, "src", "pipe.ts")]);
    await symlink("pipe.ts", join(root, "src", "via-pipe.ts"));
    const map = await mapOf(["src/ok.ts", "src/pipe.ts", "src/via-pipe.ts"]);
    expect(map).toContain("visible");
  });

  it("skips a link to /dev/zero without reading it", async () => {
    await symlink("/dev/zero", join(root, "src", "zero.ts"));
    const map = await mapOf(["src/ok.ts", "src/zero.ts"]);
    expect(map).toContain("visible");
    expect(map).not.toContain("zero.ts");
  });

  it("refuses a file reached through a folder that is a link", async () => {
    await symlink(join(dir, "home"), join(root, "vendor-link"));
    const map = await mapOf(["src/ok.ts", "vendor-link/keys.ts"]);
    expect(map).not.toContain(SECRET);
  });
});
