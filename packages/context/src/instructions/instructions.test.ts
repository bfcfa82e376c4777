import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverInstructions, foldersDownTo } from "./discover.js";
import { matchesGlob } from "./glob.js";
import { expandImports } from "./imports.js";
import { plainReader } from "./plain-reader.test.helper.js";
import { InstructionTracker } from "./tracker.js";

let repo: FixtureRepo;
let userDir: string;

beforeEach(async () => {
  repo = await createFixtureRepo({
    files: {
      "AGENTS.md": "Root agents. See @docs/style.md for style.",
      "CLAUDE.md": "Root claude.",
      "docs/style.md": "Style guide. Also @./more.md",
      "docs/more.md": "More style, back to @style.md",
      "packages/AGENTS.md": "Packages level.",
      "packages/app/AGENTS.md": "App agents. Email me@example.com, `@not/expanded.md`.",
      "packages/app/AGENTS.local.md": "Local overrides win.",
      "packages/app/src/AGENTS.md": "Src instructions.",
      "packages/app/src/deep/CLAUDE.md": "Deep instructions.",
      "packages/app/.z-engine/rules/always.md": "---\nalwaysApply: true\n---\nAlways rule.",
      "packages/app/.z-engine/rules/plain.md": "Plain rule without frontmatter.",
      "packages/app/.z-engine/rules/tests.md":
        '---\ndescription: testing conventions\nglobs:\n  - "**/*.test.ts"\n---\nUse vitest.',
      "packages/app/.z-engine/rules/bad.md": "---\nglobs: [x\nnot closed",
      "packages/other/AGENTS.md": "Other package.",
    },
  });
  userDir = await mkdtemp(join(tmpdir(), "zeng-user-"));
  await writeFile(join(userDir, "AGENTS.md"), "User preferences.");
});

afterEach(async () => {
  await repo.dispose();
  await rm(userDir, { recursive: true, force: true });
});

describe("discoverInstructions", () => {
  it("reads user, repository-to-project and local files in precedence order, with rules", async () => {
    const projectRoot = repo.path("packages/app");
    const set = await discoverInstructions({
      userConfigDir: userDir,
      repoRoot: repo.root,
      projectRoot,
      fs: plainReader,
    });
    expect(set.files.map((f) => [f.kind, f.path])).toEqual([
      ["user", join(userDir, "AGENTS.md")],
      ["project", repo.path("AGENTS.md")],
      ["project", repo.path("CLAUDE.md")],
      ["project", repo.path("packages/AGENTS.md")],
      ["project", repo.path("packages/app/AGENTS.md")],
      ["local", repo.path("packages/app/AGENTS.local.md")],
      ["rule", repo.path("packages/app/.z-engine/rules/always.md")],
      ["rule", repo.path("packages/app/.z-engine/rules/plain.md")],
    ]);
    const text = set.systemText;
    expect(text.indexOf("User preferences.")).toBeLessThan(text.indexOf("Root agents."));
    expect(text.indexOf("App agents.")).toBeLessThan(text.indexOf("Local overrides win."));
    expect(text).toContain("later one takes precedence");
    expect(text).not.toContain("Other package.");
    expect(text).not.toContain("Src instructions.");
    // Imports are expanded, the cycle is cut, mentions and code spans are left alone.
    expect(set.files[1]?.text).toBe(
      `Root agents. See Style guide. Also More style, back to [import cycle: ${repo.path("docs/style.md")}] for style.`,
    );
    expect(set.files[4]?.text).toBe("App agents. Email me@example.com, `@not/expanded.md`.");
    expect(set.scopedRules.map((r) => [r.globs, r.description])).toEqual([
      [["**/*.test.ts"], "testing conventions"],
    ]);
    expect(set.problems.some((p) => p.includes("import cycle"))).toBe(true);
    expect(set.problems.some((p) => p.includes("bad.md"))).toBe(true);
  });

  it("works without a repository, a user folder or any files", async () => {
    const empty = await mkdtemp(join(tmpdir(), "zeng-empty-"));
    try {
      const set = await discoverInstructions({ projectRoot: empty, fs: plainReader });
      expect(set).toEqual({ systemText: "", files: [], scopedRules: [], problems: [] });
      expect(foldersDownTo(repo.root, empty)).toEqual([empty]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("reports an unreadable file and keeps the rest", async () => {
    const fs = {
      ...plainReader,
      readText: async (path: string) => {
        if (path.endsWith("CLAUDE.md"))
          return {
            ok: false as const,
            path,
            reason: "unreadable" as const,
            message: `${path} cannot be read (EACCES)`,
          };
        return plainReader.readText(path);
      },
    };
    const set = await discoverInstructions({ repoRoot: repo.root, projectRoot: repo.root, fs });
    // The file stands in the section as a note, so the model knows it was not read.
    expect(set.files.map((f) => f.path)).toEqual([repo.path("AGENTS.md"), repo.path("CLAUDE.md")]);
    expect(set.files[1]?.text).toBe(
      `[import @${repo.path("CLAUDE.md")} refused: ${repo.path("CLAUDE.md")} cannot be read (EACCES)]`,
    );
    expect(set.problems).toContain(
      `${repo.path("CLAUDE.md")} refused: ${repo.path("CLAUDE.md")} cannot be read (EACCES)`,
    );
  });
});

describe("imports", () => {
  it("cuts huge imports and stops deep nesting", async () => {
    await repo.write("big.md", "x".repeat(100_000));
    const big = await expandImports("@big.md", repo.path("AGENTS.md"), {
      fs: plainReader,
      limits: { maxFileChars: 1000 },
      scope: { roots: [repo.root] },
    });
    expect(big.text.length).toBeLessThan(1200);
    expect(big.problems).toEqual([`${repo.path("big.md")} cut to 1000 characters`]);
    for (let i = 0; i < 8; i++) await repo.write(`chain/${i}.md`, `level ${i} @${i + 1}.md`);
    const deep = await expandImports("@chain/0.md", repo.path("x.md"), {
      fs: plainReader,
      limits: { maxDepth: 3 },
      scope: { roots: [repo.root] },
    });
    // Three levels of nesting are imported; the fourth is refused.
    expect(deep.text).toContain("level 2");
    expect(deep.text).not.toContain("level 3 ");
    expect(deep.problems[0]).toContain("nested too deep");
    const home = await expandImports("@~/AGENTS.md", join(userDir, "x.md"), {
      fs: plainReader,
      homeDir: userDir,
      scope: { roots: [userDir] },
    });
    expect(home.text).toBe("User preferences.");
  });
});

describe("InstructionTracker", () => {
  it("injects nested AGENTS.md/CLAUDE.md and scoped rules the first time a path matches", async () => {
    const projectRoot = repo.path("packages/app");
    const set = await discoverInstructions({ repoRoot: repo.root, projectRoot, fs: plainReader });
    const tracker = new InstructionTracker({
      projectRoot,
      scopedRules: set.scopedRules,
      fs: plainReader,
    });
    const first = await tracker.touch([join(projectRoot, "src/deep/parser.ts")]);
    expect(first.map((r) => r.key)).toEqual([
      `instructions:${join(projectRoot, "src/AGENTS.md")}`,
      `instructions:${join(projectRoot, "src/deep/CLAUDE.md")}`,
    ]);
    expect(first[1]?.text).toContain("Deep instructions.");
    expect(first[1]?.text).toContain("for the files under src/deep/");
    expect(await tracker.touch(["src/deep/other.ts", "src/a.ts"])).toEqual([]);
    const rule = await tracker.touch(["src/deep/parser.test.ts"]);
    expect(rule.map((r) => r.key)).toEqual([
      `rule:${join(projectRoot, ".z-engine/rules/tests.md")}`,
    ]);
    expect(rule[0]?.text).toContain("Use vitest.");
    expect(
      await tracker.touch(["lib/x.test.ts", repo.path("packages/other/a.ts"), "../../AGENTS.md"]),
    ).toEqual([]);
  });

  it("never gives the same reminder twice, even to concurrent calls or after a resume", async () => {
    const projectRoot = repo.path("packages/app");
    const set = await discoverInstructions({ repoRoot: repo.root, projectRoot, fs: plainReader });
    const tracker = new InstructionTracker({
      projectRoot,
      scopedRules: set.scopedRules,
      fs: plainReader,
    });
    const all = await Promise.all(
      Array.from({ length: 10 }, () => tracker.touch(["src/deep/a.test.ts"])),
    );
    const keys = all.flat().map((r) => r.key);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(3);
    const resumed = new InstructionTracker({
      projectRoot,
      scopedRules: set.scopedRules,
      fs: plainReader,
      delivered: keys,
    });
    expect(await resumed.touch(["src/deep/a.test.ts"])).toEqual([]);
  });

  it("gives reminders again after a reset", async () => {
    const projectRoot = repo.path("packages/app");
    const set = await discoverInstructions({ repoRoot: repo.root, projectRoot, fs: plainReader });
    const tracker = new InstructionTracker({
      projectRoot,
      scopedRules: set.scopedRules,
      fs: plainReader,
    });
    const first = (await tracker.touch(["src/deep/a.test.ts"])).map((r) => r.key);
    expect(await tracker.touch(["src/deep/a.test.ts"])).toEqual([]);
    tracker.reset();
    expect((await tracker.touch(["src/deep/a.test.ts"])).map((r) => r.key)).toEqual(first);
  });
});

describe("matchesGlob", () => {
  it("matches segments, any depth, alternatives and classes", () => {
    expect(matchesGlob("src/a.ts", "*.ts")).toBe(true);
    expect(matchesGlob("src/a.ts", "src/*.ts")).toBe(true);
    expect(matchesGlob("src/x/a.ts", "src/*.ts")).toBe(false);
    expect(matchesGlob("src/x/a.ts", "src/**/*.ts")).toBe(true);
    expect(matchesGlob("src/a.ts", "src/**/*.ts")).toBe(true);
    expect(matchesGlob("a.tsx", "*.{ts,tsx}")).toBe(true);
    expect(matchesGlob("a1.md", "a[0-9].md")).toBe(true);
    expect(matchesGlob("a.md", "./a.md")).toBe(true);
    expect(matchesGlob("a(b).md", "a(b).md")).toBe(true);
    expect(matchesGlob("anything", "")).toBe(false);
    expect(matchesGlob("a{b", "a{b")).toBe(true);
  });
});
