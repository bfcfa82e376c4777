import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFixtureRepo, type FixtureRepo } from "@z-engine/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverInstructions, instructionCandidates } from "./discover.js";
import { InstructionTracker } from "./tracker.js";
import { plainReader } from "./plain-reader.test.helper.js";

let repo: FixtureRepo;
let home: string;

beforeEach(async () => {
  repo = await createFixtureRepo({
    files: {
      "CLAUDE.md": "Root claude.",
      ".claude/CLAUDE.md": "Dot-claude memory. See @../docs/arch.md",
      "docs/arch.md": "Architecture notes.",
      "CLAUDE.local.md": "My local notes.",
      ".claude/rules/general.md": "Always-on Claude rule.",
      ".claude/rules/frontend/react.md":
        '---\npaths:\n  - "src/components/**/*.tsx"\n---\nUse function components.',
      ".claude/rules/api.md": "---\npaths: src/api/**/*.ts\n---\nValidate every request.",
    },
  });
  home = await mkdtemp(join(tmpdir(), "zeng-home-"));
  await mkdir(join(home, ".claude"), { recursive: true });
  await writeFile(join(home, ".claude", "CLAUDE.md"), "User Claude prefs. @prefs.md");
  await writeFile(join(home, ".claude", "prefs.md"), "Tabs, never spaces.");
});

afterEach(async () => {
  await repo.dispose();
  await rm(home, { recursive: true, force: true });
});

describe("Claude Code's instruction files", () => {
  it("reads ~/.claude/CLAUDE.md, .claude/CLAUDE.md (with imports), CLAUDE.local.md and .claude/rules/**", async () => {
    const set = await discoverInstructions({
      repoRoot: repo.root,
      projectRoot: repo.root,
      homeDir: home,
      fs: plainReader,
    });
    expect(set.files.map((f) => [f.kind, f.path])).toEqual([
      ["user", join(home, ".claude", "CLAUDE.md")],
      ["project", repo.path("CLAUDE.md")],
      ["project", repo.path(".claude/CLAUDE.md")],
      ["local", repo.path("CLAUDE.local.md")],
      ["rule", repo.path(".claude/rules/general.md")],
    ]);
    expect(set.systemText).toContain("Tabs, never spaces.");
    expect(set.systemText).toContain("Architecture notes.");
    // Path-scoped rules are never always-on.
    expect(set.systemText).not.toContain("Use function components.");
    expect(set.systemText).not.toContain("Validate every request.");
    expect(set.scopedRules.map((r) => [r.path, r.globs])).toEqual([
      [repo.path(".claude/rules/api.md"), ["src/api/**/*.ts"]],
      [repo.path(".claude/rules/frontend/react.md"), ["src/components/**/*.tsx"]],
    ]);
    expect(set.problems).toEqual([]);
  });

  it("applies a paths: rule only when the session touches a matching path", async () => {
    const set = await discoverInstructions({
      repoRoot: repo.root,
      projectRoot: repo.root,
      fs: plainReader,
    });
    const tracker = new InstructionTracker({
      projectRoot: repo.root,
      scopedRules: set.scopedRules,
      fs: plainReader,
    });
    expect(await tracker.touch(["src/lib/util.ts", "src/components/x.ts"])).toEqual([]);
    const hit = await tracker.touch(["src/components/ui/Button.tsx"]);
    expect(hit.map((r) => r.key)).toEqual([`rule:${repo.path(".claude/rules/frontend/react.md")}`]);
    expect(hit[0]?.text).toContain("Use function components.");
  });

  it("reads the user's ~/.claude/rules/** before the project's; a user paths: rule is scoped too", async () => {
    await mkdir(join(home, ".claude", "rules", "lang"), { recursive: true });
    await writeFile(join(home, ".claude", "rules", "style.md"), "User-wide rule. @../prefs.md");
    await writeFile(
      join(home, ".claude", "rules", "lang", "go.md"),
      "---\npaths: **/*.go\n---\nGo rule.",
    );
    const set = await discoverInstructions({
      repoRoot: repo.root,
      projectRoot: repo.root,
      homeDir: home,
      fs: plainReader,
    });
    expect(set.files.filter((f) => f.kind === "rule").map((f) => f.path)).toEqual([
      join(home, ".claude", "rules", "style.md"),
      repo.path(".claude/rules/general.md"),
    ]);
    expect(set.systemText).toContain("User-wide rule. Tabs, never spaces.");
    expect(set.systemText).not.toContain("Go rule.");
    expect(set.scopedRules.map((r) => r.path)).toContain(
      join(home, ".claude", "rules", "lang", "go.md"),
    );
    expect(set.problems).toEqual([]);
  });
});

describe("instructionCandidates", () => {
  it("names every top-level file discovery reads, in its order, whether or not it exists", async () => {
    const user = join(home, "config");
    const files = instructionCandidates({
      repoRoot: repo.root,
      projectRoot: repo.path("app"),
      homeDir: home,
      userConfigDir: user,
    });
    expect(files).toEqual([
      { path: join(home, ".claude", "CLAUDE.md"), kind: "user" },
      { path: join(user, "AGENTS.md"), kind: "user" },
      { path: repo.path("AGENTS.md"), kind: "project" },
      { path: repo.path("CLAUDE.md"), kind: "project" },
      { path: repo.path(".claude/CLAUDE.md"), kind: "project" },
      { path: repo.path("app/AGENTS.md"), kind: "project" },
      { path: repo.path("app/CLAUDE.md"), kind: "project" },
      { path: repo.path("app/.claude/CLAUDE.md"), kind: "project" },
      { path: repo.path("app/AGENTS.local.md"), kind: "local" },
      { path: repo.path("app/CLAUDE.local.md"), kind: "local" },
    ]);
    // The files discovery found are among them, in the same order.
    const set = await discoverInstructions({
      repoRoot: repo.root,
      projectRoot: repo.root,
      homeDir: home,
      fs: plainReader,
    });
    const all = instructionCandidates({
      repoRoot: repo.root,
      projectRoot: repo.root,
      homeDir: home,
    });
    const found = set.files.filter((f) => f.kind !== "rule").map((f) => f.path);
    expect(all.map((c) => c.path).filter((p) => found.includes(p))).toEqual(found);
  });
});
