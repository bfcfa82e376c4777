import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
import {
  type CommandDefinition,
  parseCommandMarkdown,
  parseSkillMarkdown,
  type SkillDefinition,
} from "@z-engine/prompts";

/** Where a definition came from: the project's folders or the user's. */
export type DefinitionScope = "project" | "user";

/** A custom command found on disk. */
export interface CustomCommand extends CommandDefinition {
  readonly scope: DefinitionScope;
  readonly path: string;
}

/** A skill found on disk: its definition and its folder. */
export interface FoundSkill extends SkillDefinition {
  readonly scope: DefinitionScope;
  /** The folder that holds its SKILL.md (and any scripts or references beside it). */
  readonly dir: string;
}

/** What discovery found, and one line per file that could not be used. */
export interface Discovered<T> {
  readonly items: readonly T[];
  readonly problems: readonly string[];
}

/** The folders a session searches, highest precedence first. */
export interface DefinitionRoots {
  readonly projectRoot: string;
  /** The engine's user config folder (`~/.config/z-engine`). */
  readonly userConfigDir: string;
  readonly homeDir: string;
}

/** `<kind>` folders in precedence order: project .z-engine, project .claude, user, user .claude. */
export function definitionDirs(
  roots: DefinitionRoots,
  kind: string,
): Array<{ dir: string; scope: DefinitionScope }> {
  return [
    { dir: join(roots.projectRoot, ".z-engine", kind), scope: "project" },
    { dir: join(roots.projectRoot, ".claude", kind), scope: "project" },
    { dir: join(roots.userConfigDir, kind), scope: "user" },
    { dir: join(roots.homeDir, ".claude", kind), scope: "user" },
  ];
}

const MAX_DEPTH = 6;

/** Every file under `dir` whose name passes `want`, sorted; a missing folder gives none. */
async function filesUnder(
  dir: string,
  want: (name: string) => boolean,
  problems: string[],
  depth = 0,
): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push(`${dir}: cannot be read (${code ?? (error as Error).message})`);
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory() && depth < MAX_DEPTH && !entry.name.startsWith("."))
      out.push(...(await filesUnder(full, want, problems, depth + 1)));
    else if ((entry.isFile() || entry.isSymbolicLink()) && want(entry.name)) out.push(full);
  }
  return out;
}

async function readText(path: string, problems: string[]): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push(`${path}: cannot be read (${code ?? (error as Error).message})`);
    return undefined;
  }
}

/** `frontend/component.md` under a commands folder names `frontend:component`. */
export function commandName(dir: string, file: string): string {
  return relative(dir, file).slice(0, -".md".length).split(sep).join(":");
}

/**
 * Custom commands (`*.md` under each commands folder, nested folders giving `a:b` names).
 * The first folder to define a name wins. Never rejects: an unreadable or malformed file is
 * a problem line and is skipped.
 */
export async function discoverCommands(roots: DefinitionRoots): Promise<Discovered<CustomCommand>> {
  const problems: string[] = [];
  const byName = new Map<string, CustomCommand>();
  for (const { dir, scope } of definitionDirs(roots, "commands")) {
    for (const path of await filesUnder(dir, (n) => n.endsWith(".md"), problems)) {
      const name = commandName(dir, path);
      if (byName.has(name)) continue;
      const text = await readText(path, problems);
      if (text === undefined) continue;
      const parsed = parseCommandMarkdown(text, name);
      if (!parsed.ok) problems.push(`${path}: ${parsed.error}`);
      else byName.set(name, { ...parsed.value, scope, path });
    }
  }
  return { items: [...byName.values()], problems };
}

/**
 * Skills (`<name>/SKILL.md` under each skills folder, also inside group folders). The first
 * folder to define a name wins; the list is sorted by name (a cache-stable order). Never
 * rejects: an unreadable or malformed file is a problem line and is skipped.
 */
export async function discoverSkills(roots: DefinitionRoots): Promise<Discovered<FoundSkill>> {
  const problems: string[] = [];
  const byName = new Map<string, FoundSkill>();
  for (const { dir, scope } of definitionDirs(roots, "skills")) {
    for (const path of await filesUnder(dir, (n) => n === "SKILL.md", problems)) {
      const folder = dirname(path);
      const text = await readText(path, problems);
      if (text === undefined) continue;
      const parsed = parseSkillMarkdown(text, basename(folder));
      if (!parsed.ok) problems.push(`${path}: ${parsed.error}`);
      else if (!byName.has(parsed.value.name))
        byName.set(parsed.value.name, { ...parsed.value, scope, dir: folder });
    }
  }
  const items = [...byName.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return { items, problems };
}
