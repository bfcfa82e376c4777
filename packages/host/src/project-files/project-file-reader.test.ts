import { execFile } from "node:child_process";
import {
  link,
  mkdir,
  mkdtemp,
  realpath,
  rename,
  rm,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProjectFileReader, type ProjectFileFacts } from "./project-file-reader.js";
import { readVerified } from "./read-verified.js";

const exec = promisify(execFile);

let dir: string;
let project: string;
let home: string;
const SECRET = "SECRET-KEY-MARKER";

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "zeng-door-")));
  project = join(dir, "project");
  home = join(dir, "home");
  await mkdir(join(project, "docs"), { recursive: true });
  await mkdir(join(home, ".ssh"), { recursive: true });
  await writeFile(join(home, ".ssh", "id_rsa"), `${SECRET}\n`);
  await writeFile(join(project, "docs", "a.md"), "alpha\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const door = (extra: Parameters<typeof createProjectFileReader>[0] | object = {}) =>
  createProjectFileReader({ roots: [project], ...extra });

describe("the project-files door", () => {
  it("reads a regular file inside its roots, through a link that stays inside", async () => {
    await symlink("docs/a.md", join(project, "link.md"));
    const read = await door().readText(join(project, "link.md"));
    expect(read).toMatchObject({
      ok: true,
      text: "alpha\n",
      realPath: join(project, "docs", "a.md"),
    });
  });

  it("refuses a link and a `..` path out of its roots, naming where they lead", async () => {
    await symlink(join(home, ".ssh", "id_rsa"), join(project, "notes.md"));
    const linked = await door().readText(join(project, "notes.md"));
    expect(linked).toMatchObject({
      ok: false,
      reason: "outside",
      realPath: join(home, ".ssh", "id_rsa"),
    });
    expect(JSON.stringify(linked)).not.toContain(SECRET);
    expect(!linked.ok && linked.message).toContain("outside the project");
    const dotted = await door().readText(`${project}/docs/../../home/.ssh/id_rsa`);
    expect(dotted).toMatchObject({ ok: false, reason: "outside" });
  });

  it("asks its outside gate about a file out of its roots, with the facts", async () => {
    const asked: ProjectFileFacts[] = [];
    const reader = door({
      outside: (facts: ProjectFileFacts) => {
        asked.push(facts);
        return true;
      },
    });
    const read = await reader.readText(join(home, ".ssh", "id_rsa"));
    expect(read.ok && read.text).toContain(SECRET);
    expect(asked).toEqual([
      expect.objectContaining({
        inside: false,
        hardLinked: false,
        realPath: join(home, ".ssh", "id_rsa"),
      }),
    ]);
  });

  it("never opens a FIFO or a device, even through a link, and never blocks", async () => {
    await exec("mkfifo", [join(project, "pipe")]);
    await symlink("pipe", join(project, "pipe.md"));
    await symlink("/dev/zero", join(project, "zero.md"));
    const everywhere = createProjectFileReader({ roots: ["/"] });
    expect(await everywhere.readText(join(project, "pipe.md"))).toMatchObject({
      ok: false,
      reason: "notRegular",
    });
    const zero = await everywhere.readText(join(project, "zero.md"));
    expect(zero).toMatchObject({ ok: false, reason: "notRegular" });
    expect(!zero.ok && zero.message).toContain("character device");
    expect(await door().readText(join(project, "zero.md"))).toMatchObject({ reason: "outside" });
    expect(await door().readText(join(project, "docs"))).toMatchObject({ reason: "notRegular" });
  });

  it("reads at most maxBytes: refuses a larger file, or cuts it when asked", async () => {
    await writeFile(join(project, "big.md"), "x".repeat(5000));
    const reader = door({ maxBytes: 1000 });
    expect(await reader.readText(join(project, "big.md"))).toMatchObject({
      ok: false,
      reason: "tooLarge",
    });
    const cut = await reader.readText(join(project, "big.md"), { cut: true });
    expect(cut).toMatchObject({ ok: true, cut: true });
    expect(cut.ok && cut.text.length).toBe(1000);
    const whole = await reader.readText(join(project, "big.md"), { maxBytes: 5000 });
    expect(whole).toMatchObject({ ok: true, cut: false });
  });

  it("tells its rules about hard links and refuses what they refuse", async () => {
    await link(join(home, ".ssh", "id_rsa"), join(project, "docs", "harmless.md"));
    const seen: ProjectFileFacts[] = [];
    const reader = door({
      rules: (facts: ProjectFileFacts) => {
        seen.push(facts);
        return facts.hardLinked ? `${facts.path} has other hard links` : undefined;
      },
    });
    const read = await reader.readText(join(project, "docs", "harmless.md"));
    expect(read).toMatchObject({ ok: false, reason: "denied" });
    expect(JSON.stringify(read)).not.toContain(SECRET);
    expect(seen[0]).toMatchObject({ inside: true, hardLinked: true });
    expect((await reader.readText(join(project, "docs", "a.md"))).ok).toBe(true);
  });

  it("lists a folder without following its links, and refuses a linked folder out of its roots", async () => {
    await symlink(join(home, ".ssh"), join(project, "keys"));
    await symlink(join(home, ".ssh"), join(project, "docs", "keys"));
    expect(await door().list(join(project, "docs"))).toEqual([
      { name: "a.md", kind: "file" },
      { name: "keys", kind: "link" },
    ]);
    expect(await door().list(join(project, "keys"))).toBeUndefined();
    expect(await door().list(join(project, "missing"))).toBeUndefined();
  });

  it("answers missing for nothing there, a dangling link and a loop", async () => {
    await symlink("nowhere", join(project, "dangling"));
    await symlink("loop-b", join(project, "loop-a"));
    await symlink("loop-a", join(project, "loop-b"));
    for (const name of ["absent", "dangling", "loop-a"])
      expect(await door().readText(join(project, name))).toMatchObject({
        ok: false,
        reason: "missing",
      });
    expect(await door().realPath(join(project, "dangling"))).toBeUndefined();
  });
});

describe("readVerified", () => {
  it("refuses a file replaced, or reached through a folder swapped for a link, after it was admitted", async () => {
    const file = join(project, "docs", "a.md");
    const admitted = await stat(file);
    await rename(file, join(project, "old.md")); // kept, so its inode is not reused
    await writeFile(file, "replaced\n");
    expect(await readVerified(file, await stat(file), 100)).toMatchObject({ more: false });
    expect(await readVerified(file, admitted, 100)).toBe("was replaced while it was opened");
    const before = await stat(file);
    await rename(join(project, "docs"), join(project, "docs-moved"));
    await mkdir(join(home, "docs"));
    await writeFile(join(home, "docs", "a.md"), `${SECRET}\n`);
    await symlink(join(home, "docs"), join(project, "docs"));
    expect(await readVerified(file, before, 100)).toBe("was replaced while it was opened");
    await rm(join(project, "docs"));
    await symlink(join(project, "docs-moved"), join(project, "docs"));
    expect(await readVerified(file, before, 100)).toBe("moved while it was opened");
  });

  it("refuses a file that became a symbolic link", async () => {
    const file = join(project, "docs", "a.md");
    const admitted = await stat(file);
    await rename(file, join(project, "old.md"));
    await symlink(join(home, ".ssh", "id_rsa"), file);
    expect(await readVerified(file, admitted, 100)).toBe(
      "became a symbolic link while it was opened",
    );
  });
});
