import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverInstructions, instructionScope } from "./discover.js";
import { plainReader } from "./plain-reader.test.helper.js";
import { InstructionTracker } from "./tracker.js";

const SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- hunter2";

let repo: FixtureRepo;
let outside: string;
let home: string;
let userDir: string;

beforeEach(async () => {
  repo = await createFixtureRepo({
    files: {
      "AGENTS.md": [
        "Project rules.",
        "Key: @~/.ssh/id_rsa",
        `Abs: @${"/OUTSIDE/secret.txt"}`,
        "Up: @../outside/secret.txt",
        "Docs: @docs/ok.md",
        "Linked: @docs/link.md",
        "Mine: @~/.config/zeng/shared.md",
      ].join("\n"),
      "docs/ok.md": "Docs inside.",
    },
  });
  outside = await realpath(await mkdtemp(join(tmpdir(), "zeng-outside-")));
  home = await realpath(await mkdtemp(join(tmpdir(), "zeng-home-")));
  userDir = join(home, ".config", "zeng");
  await mkdir(join(home, ".ssh"), { recursive: true });
  await mkdir(userDir, { recursive: true });
  await writeFile(join(home, ".ssh", "id_rsa"), SECRET);
  await writeFile(join(outside, "secret.txt"), SECRET);
  await writeFile(join(userDir, "shared.md"), "Shared from the config folder.");
  // The repository's AGENTS.md names the outside folder by its real path.
  const text = (await repo.read("AGENTS.md")).replace("/OUTSIDE", outside);
  await repo.write("AGENTS.md", text.replace("../outside/", `${relativeUp(repo.root, outside)}/`));
  await symlink(join(outside, "secret.txt"), repo.path("docs/link.md"));
});

afterEach(async () => {
  await repo.dispose();
  await rm(outside, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

/** `../..../outside-folder` from `from`: a relative path that climbs out of the repository. */
function relativeUp(from: string, to: string): string {
  const depth = from.split("/").filter(Boolean).length;
  return `${"../".repeat(depth)}${to.slice(1)}`;
}

const options = (extra: object = {}) => ({
  userConfigDir: userDir,
  repoRoot: repo.root,
  projectRoot: repo.root,
  homeDir: home,
  fs: plainReader,
  ...extra,
});

describe("instruction imports stay inside the project", () => {
  it("refuses every import out of an untrusted project, with a visible note", async () => {
    const set = await discoverInstructions(options());
    const text = set.systemText;
    expect(text).not.toContain("hunter2");
    expect(text).toContain("[import @~/.ssh/id_rsa refused: outside the project]");
    expect(text).toContain(`[import @${outside}/secret.txt refused: outside the project]`);
    expect(text).toContain("[import @docs/link.md refused: outside the project]");
    expect(text).toMatch(/Up: \[import @(\.\.\/)+.* refused: outside the project\]/);
    expect(text).toContain("Docs: Docs inside.");
    expect(text).toContain("Mine: Shared from the config folder.");
    expect(set.problems.filter((p) => p.includes("refused"))).toHaveLength(4);
  });

  it("treats an instruction file or rule that links out of the project like an import", async () => {
    await symlink(join(outside, "secret.txt"), repo.path("CLAUDE.md"));
    await mkdir(repo.path(".z-engine/rules"), { recursive: true });
    await symlink(join(outside, "secret.txt"), repo.path(".z-engine/rules/leak.md"));
    await repo.write("AGENTS.local.md", "Local.");
    const set = await discoverInstructions(options());
    expect(set.systemText).not.toContain("hunter2");
    expect(set.files.map((f) => [f.kind, f.text])).toContainEqual([
      "project",
      `[import @${repo.path("CLAUDE.md")} refused: outside the project]`,
    ]);
    expect(set.files.map((f) => [f.kind, f.text])).toContainEqual([
      "rule",
      `[import @${repo.path(".z-engine/rules/leak.md")} refused: outside the project]`,
    ]);
    expect(set.systemText).toContain("Local.");
  });

  it("asks the read gate about each outside file by its real path, and includes what it allows", async () => {
    const asked: Array<[string, string, string]> = [];
    const set = await discoverInstructions(
      options({
        readAllowed: (real: string, written: string, importer: string) => {
          asked.push([real, written, importer]);
          return !real.includes(".ssh");
        },
      }),
    );
    expect(asked).toContainEqual([join(home, ".ssh/id_rsa"), join(home, ".ssh/id_rsa"), "project"]);
    expect(asked).toContainEqual([
      join(outside, "secret.txt"),
      repo.path("docs/link.md"),
      "project",
    ]);
    expect(set.systemText).toContain("[import @~/.ssh/id_rsa refused: outside the project]");
    expect(set.systemText).toContain(`Linked: ${SECRET}`);
    // A gate that fails refuses.
    const failing = await discoverInstructions(
      options({
        readAllowed: () => Promise.reject(new Error("gate down")),
      }),
    );
    expect(failing.systemText).not.toContain("hunter2");
  });

  it("reads the user's own AGENTS.md through a link, and gives its imports to the gate as the user's", async () => {
    await writeFile(join(outside, "dotfiles.md"), "User prefs from dotfiles. @~/.ssh/id_rsa");
    await symlink(join(outside, "dotfiles.md"), join(userDir, "AGENTS.md"));
    const importers: string[] = [];
    const set = await discoverInstructions(
      options({
        readAllowed: (_real: string, _written: string, importer: string) => {
          importers.push(importer);
          return false;
        },
      }),
    );
    expect(set.files[0]?.kind).toBe("user");
    expect(set.files[0]?.text).toBe(
      "User prefs from dotfiles. [import @~/.ssh/id_rsa refused: outside the project]",
    );
    expect(importers[0]).toBe("user");
  });
});

describe("InstructionTracker", () => {
  it("refuses a nested instruction file that links out of the project, and its imports", async () => {
    await repo.write("src/a.ts", "");
    await symlink(join(outside, "secret.txt"), repo.path("src/AGENTS.md"));
    await repo.write("lib/AGENTS.md", "Lib. @~/.ssh/id_rsa");
    const tracker = new InstructionTracker({
      projectRoot: repo.root,
      scopedRules: [],
      homeDir: home,
      fs: plainReader,
      scope: instructionScope(options(), "project"),
    });
    const reminders = await tracker.touch(["src/a.ts", "lib/b.ts"]);
    const text = reminders.map((r) => r.text).join("\n");
    expect(text).not.toContain("hunter2");
    expect(text).toContain(`[import @${repo.path("src/AGENTS.md")} refused: outside the project]`);
    expect(text).toContain("Lib. [import @~/.ssh/id_rsa refused: outside the project]");
  });
});
