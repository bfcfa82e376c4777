import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoryChoices, shownPath } from "./memory-choices.js";

const root = "/home/ann/code/app";
const home = "/home/ann";

describe("memoryChoices", () => {
  it("offers the files that are there in the engine's order, then a new project file when there is none", () => {
    const offered = memoryChoices(
      {
        files: [
          { path: join(home, ".claude/CLAUDE.md"), kind: "user", exists: true },
          { path: join(home, ".config/z-engine/AGENTS.md"), kind: "user", exists: false },
          { path: join(root, "AGENTS.md"), kind: "project", exists: false },
          { path: join(root, "CLAUDE.local.md"), kind: "local", exists: true },
          {
            path: join(root, "AGENTS.local.md"),
            kind: "local",
            exists: true,
            refused: "it links outside the project",
          },
        ],
        newProjectFile: join(root, "AGENTS.md"),
      },
      root,
      home,
    );
    expect(offered.choices).toEqual([
      { label: "User: ~/.claude/CLAUDE.md", value: join(home, ".claude/CLAUDE.md") },
      { label: "Local: ./CLAUDE.local.md", value: join(root, "CLAUDE.local.md") },
      {
        label: "New project memory file: ./AGENTS.md (created when you save it)",
        value: join(root, "AGENTS.md"),
      },
    ]);
    expect(offered.skipped).toEqual(["./AGENTS.local.md (it links outside the project)"]);
  });

  it("offers nothing to create when the project has its own file", () => {
    const offered = memoryChoices(
      { files: [{ path: join(root, "CLAUDE.md"), kind: "project", exists: true }] },
      root,
      home,
    );
    expect(offered.choices.map((c) => c.label)).toEqual(["Project: ./CLAUDE.md"]);
  });
});

describe("shownPath", () => {
  it("is ./ in the project, ~/ in the home folder, else absolute", () => {
    expect(shownPath(join(root, ".claude/CLAUDE.md"), root, home)).toBe("./.claude/CLAUDE.md");
    expect(shownPath("/home/ann/code/AGENTS.md", root, home)).toBe("~/code/AGENTS.md");
    expect(shownPath("/srv/AGENTS.md", root, home)).toBe("/srv/AGENTS.md");
    expect(shownPath("/srv/AGENTS.md", root, undefined)).toBe("/srv/AGENTS.md");
  });
});
