import { basename, dirname, join, relative, sep } from "node:path";
import {
  type CommandDefinition,
  parseCommandMarkdown,
  parseSkillMarkdown,
  type SkillDefinition,
} from "@z-engine/prompts";
import type { ProjectFileReader } from "@z-engine/protocol";

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

/**
 * The doors definition files are read through: the project's through `project` (real paths
 * inside the project, the session's Read rules), the user's own through `user` (links
 * anywhere, deny rules still hold).
 */
export interface DefinitionDoors {
  readonly project: ProjectFileReader;
  readonly user: ProjectFileReader;
}

/** The folders a session searches, highest precedence first, and the doors to read them. */
export interface DefinitionRoots {
  readonly projectRoot: string;
  /** The engine's user config folder (`~/.config/z-engine`). */
  readonly userConfigDir: string;
  readonly homeDir: string;
  readonly files: DefinitionDoors;
}

/** The largest definition file read (a larger one is a problem line). */
export const MAX_DEFINITION_BYTES = 256 * 1024;

/** `<kind>` folders in precedence order: project .z-engine, project .claude, user, user .claude. */
export function definitionDirs(
  roots: DefinitionRoots,
  kind: string,
): Array<{ dir: string; scope: DefinitionScope; files: ProjectFileReader }> {
  const { project, user } = roots.files;
  return [
    { dir: join(roots.projectRoot, ".z-engine", kind), scope: "project", files: project },
    { dir: join(roots.projectRoot, ".claude", kind), scope: "project", files: project },
    { dir: join(roots.userConfigDir, kind), scope: "user", files: user },
    { dir: join(roots.homeDir, ".claude", kind), scope: "user", files: user },
  ];
}

const MAX_DEPTH = 6;

/**
 * Every file under `dir` whose name passes `want`, sorted, listed through the door (links are
 * listed as links and never entered; the door reads where they lead when it allows that); a
 * missing folder, or one the door refuses, gives none.
 */
async function filesUnder(
  files: ProjectFileReader,
  dir: string,
  want: (name: string) => boolean,
  depth = 0,
): Promise<string[]> {
  const out: string[] = [];
  for (const entry of (await files.list(dir)) ?? []) {
    const full = join(dir, entry.name);
    if (entry.kind === "folder" && depth < MAX_DEPTH && !entry.name.startsWith("."))
      out.push(...(await filesUnder(files, full, want, depth + 1)));
    else if ((entry.kind === "file" || entry.kind === "link") && want(entry.name)) out.push(full);
  }
  return out;
}

/** A definition file's text through the door, or undefined with a problem line. Never rejects. */
export async function readDefinition(
  files: ProjectFileReader,
  path: string,
  problems: string[],
): Promise<string | undefined> {
  const read = await files.readText(path, { maxBytes: MAX_DEFINITION_BYTES });
  if (read.ok) return read.text;
  problems.push(`${path} was not read: ${read.message}`);
  return undefined;
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
  for (const { dir, scope, files } of definitionDirs(roots, "commands")) {
    for (const path of await filesUnder(files, dir, (n) => n.endsWith(".md"))) {
      const name = commandName(dir, path);
      if (byName.has(name)) continue;
      const text = await readDefinition(files, path, problems);
      if (text === undefined) continue;
      const parsed = parseCommandMarkdown(text, name);
      if (!parsed.ok) problems.push(`${path}: ${parsed.error}`);
      else byName.set(name, { ...parsed.value, scope, path });
    }
  }
  return { items: [...byName.values()], problems };
}

/** The frontmatter name a skill was not given (its folder's stands in), or undefined. */
function renamed(skill: SkillDefinition): string | undefined {
  const written = skill.fields.name;
  return typeof written === "string" && written.trim() !== "" && written !== skill.name
    ? written
    : undefined;
}

/**
 * Skills (`<name>/SKILL.md` under each skills folder, also inside group folders). The first
 * folder to define a name wins; the list is sorted by name (a cache-stable order). A skill
 * whose `name` is not a valid name is named after its folder, with a problem line. Never
 * rejects: an unreadable or malformed file is a problem line and is skipped.
 */
export async function discoverSkills(roots: DefinitionRoots): Promise<Discovered<FoundSkill>> {
  const problems: string[] = [];
  const byName = new Map<string, FoundSkill>();
  for (const { dir, scope, files } of definitionDirs(roots, "skills")) {
    for (const path of await filesUnder(files, dir, (n) => n === "SKILL.md")) {
      const folder = dirname(path);
      const text = await readDefinition(files, path, problems);
      if (text === undefined) continue;
      const parsed = parseSkillMarkdown(text, basename(folder));
      if (!parsed.ok) problems.push(`${path}: ${parsed.error}`);
      else if (renamed(parsed.value))
        problems.push(
          `${path}: name "${renamed(parsed.value)}" is not a name of letters, digits, - _ . or :; the skill is /${parsed.value.name}, its folder's name`,
        );
      if (parsed.ok && !byName.has(parsed.value.name))
        byName.set(parsed.value.name, { ...parsed.value, scope, dir: folder });
    }
  }
  const items = [...byName.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  return { items, problems };
}
