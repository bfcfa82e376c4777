import { isAbsolute, relative, sep } from "node:path";
import type { MemoryFiles } from "@z-engine/engine";

/** What `/memory` offers: the picker's choices (the value is the file's absolute path). */
export interface MemoryChoices {
  readonly choices: readonly { readonly label: string; readonly value: string }[];
  /** Files that are there but not offered (the door refuses them: a link out, a FIFO), with why. */
  readonly skipped: readonly string[];
}

const KIND = { user: "User", project: "Project", local: "Local" } as const;

function inside(path: string, folder: string): string | undefined {
  const rel = relative(folder, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : undefined;
}

/** A path as the user reads it: `./x` in the project, `~/x` in the home folder, else absolute. */
export function shownPath(path: string, projectRoot: string, home: string | undefined): string {
  const project = inside(path, projectRoot);
  if (project !== undefined) return `.${sep}${project}`;
  const own = home ? inside(path, home) : undefined;
  return own !== undefined ? `~${sep}${own}` : path;
}

/**
 * The files `/memory` offers: each instruction file that is there and readable, in the
 * engine's precedence order (user, project from the repository root down, local), then the
 * project's new file when it has none of its own. Pure.
 */
export function memoryChoices(
  files: MemoryFiles,
  projectRoot: string,
  home: string | undefined,
): MemoryChoices {
  const show = (path: string) => shownPath(path, projectRoot, home);
  const there = files.files.filter((f) => f.exists);
  const choices = there
    .filter((f) => f.refused === undefined)
    .map((f) => ({ label: `${KIND[f.kind]}: ${show(f.path)}`, value: f.path }));
  if (files.newProjectFile)
    choices.push({
      label: `New project memory file: ${show(files.newProjectFile)} (created when you save it)`,
      value: files.newProjectFile,
    });
  const skipped = there
    .filter((f) => f.refused !== undefined)
    .map((f) => `${show(f.path)} (${f.refused})`);
  return { choices, skipped };
}
