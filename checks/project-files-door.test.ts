import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { directReads, directReadsIn } from "./project-files-door.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The modules of the watched packages that may read with `node:fs` themselves, and why each
 * is not a way around the project-files door. A new entry needs a reason a reviewer accepts:
 * what it reads, and why that is not a project-controlled file the model sees, or how it
 * keeps the door's whole rule itself.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  "packages/context/src/repo-map/languages.ts":
    "reads the tree-sitter grammars (.wasm, tags.scm) from the engine's own installed packages, never the project's",
  "packages/context/src/repo-map/map-snapshot.ts":
    "reads the repo map's snapshot in the engine's data folder; the files it names pass the door again before use",
  "packages/context/src/repo-map/tag-cache.ts":
    "reads the repo map's tag cache in the engine's data folder",
  "packages/context/src/repo-map/map-file-read.ts":
    "the door's second half for the repo map: its worker thread cannot be handed the door, so the engine admits each file through the door and hands over real paths; this reads them with O_NOFOLLOW | O_NONBLOCK, regular files with one link only, checks the open file is still the one at that real path, and reads at most 256 KiB + 1",
  "packages/integrations/src/mcp/oauth/store.ts":
    "reads the MCP OAuth token records in the engine's data folder (0700/0600), never a project file",
  "packages/engine/src/repo-map/project-files.ts":
    "lists the project's file names when it is not a git repository (regular files only, links and hidden folders left out); every listed file is admitted by the door before the map reads it",
  "packages/engine/src/commands/remember.ts":
    "/remember's append: opens the real path the Write gate allowed with O_NOFOLLOW | O_NONBLOCK and reads its last byte (for the newline); nothing read reaches the model",
  "packages/engine/src/environment/git-toplevel.ts":
    "reads a `.git` file (a regular file, by stat) only to see that it starts with `gitdir:`; its text goes nowhere (the git door's side)",
  "packages/engine/src/agents/worktrees.ts":
    "reads the engine's own worktree descriptors in the session folder (JSON, schema-checked; never sent to the model)",
  "packages/engine/src/queries/project-file.ts":
    "the host's Changes screen (a user's review, never sent to the model): a path checked relative and inside the project, lstat'd (a link reported, not followed), then opened with O_NOFOLLOW | O_NONBLOCK, regular files only (checked on the handle), at most 8 MiB (git-branch.ts reads `.git` and HEAD through it, 4 KiB)",
  "packages/engine/src/queries/models.ts":
    "reads the model catalog's cache in the engine's data folder, never a project file",
  "packages/tools/src/regular-file.ts":
    "the Read, Edit and Write tools' door for their own case: the path was resolved to its real path in the tool's action() and decided by the gate (Read/Edit rules, hard links marked), the call refuses a path that leads elsewhere since, and this opens regular files only, with O_NOFOLLOW | O_NONBLOCK, checked again on the open handle",
  "packages/tools/src/search/grep-js.ts":
    "Grep's engine without ripgrep: reads the files the walk found (regular files by lstat, no links) under a root the gate allowed; Read deny rules and hard links filter its results as for ripgrep",
  "packages/tools/src/search/walk.ts":
    "Glob and Grep's walk: lists folders under a root the gate allowed (links not entered) and reads their .gitignore files to apply them",
};

describe("the project-files door", () => {
  it("no watched module reads with node:fs unless the allow-list says why", () => {
    const found = directReads(repoRoot);
    const unexplained = found
      .filter((f) => ALLOWED[f.file] === undefined)
      .map(
        (f) =>
          `${f.file} (${f.names.join(", ")}): read it through the door (host's createProjectFileReader), or add it to ALLOWED with the reason it is safe`,
      );
    expect(unexplained).toEqual([]);
  });

  it("every allow-list entry still reads directly (a stale entry is removed)", () => {
    const found = new Set(directReads(repoRoot).map((f) => f.file));
    const stale = Object.keys(ALLOWED).filter((file) => !found.has(file));
    expect(stale).toEqual([]);
    for (const file of Object.keys(ALLOWED))
      expect(existsSync(join(repoRoot, file)), file).toBe(true);
  });
});

describe("directReadsIn", () => {
  const names = (text: string) => directReadsIn("m.ts", text);

  it("finds reading functions imported from node:fs, fs/promises and fs", () => {
    expect(names(`import { readFile, stat } from "node:fs/promises";`)).toEqual(["readFile"]);
    expect(names(`import { readFileSync as r } from "node:fs";`)).toEqual(["readFileSync"]);
    expect(names(`import { open, readdir } from "fs";`)).toEqual(["open", "readdir"]);
    expect(names(`import { promises } from "node:fs";`)).toEqual(["promises"]);
  });

  it("finds the whole module, a re-export, a dynamic import and a require", () => {
    expect(names(`import * as fs from "node:fs";`)).toEqual(["*"]);
    expect(names(`import fs from "fs/promises";`)).toEqual(["*"]);
    expect(names(`export { readFile } from "node:fs/promises";`)).toEqual(["export from"]);
    expect(names(`const fs = await import("node:fs/promises");`)).toEqual(["import()"]);
    expect(names(`const fs = require("fs");`)).toEqual(["require"]);
  });

  it("leaves metadata calls, writes, types and other modules", () => {
    expect(
      names(`import { lstat, realpath, existsSync, writeFile } from "node:fs/promises";`),
    ).toEqual([]);
    expect(names(`import type { Stats } from "node:fs";`)).toEqual([]);
    expect(names(`import { type FileHandle } from "node:fs/promises";`)).toEqual([]);
    expect(names(`import { readFile } from "./my-fs.js";`)).toEqual([]);
  });
});
