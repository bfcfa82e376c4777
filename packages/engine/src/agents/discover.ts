import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { type AgentDefinition, loadBuiltinAgents, parseAgentMarkdown } from "@z-engine/prompts";

/** Where a definition came from; a project's agents are capped by their caller's mode. */
export type AgentSource = "builtin" | "project" | "user";

/** One agent type the session can start. */
export interface AgentType {
  readonly definition: AgentDefinition;
  readonly source: AgentSource;
  /** The file it was read from (absent for built-ins). */
  readonly path?: string;
}

/** A file that could not be used, for a notice. */
export interface AgentFileProblem {
  readonly path: string;
  readonly error: string;
}

/** The session's agent types by name, and the files that were skipped. */
export interface AgentCatalog {
  readonly types: ReadonlyMap<string, AgentType>;
  readonly problems: readonly AgentFileProblem[];
}

/** Where to look. */
export interface AgentFolders {
  readonly projectRoot: string;
  /** The user's z-engine config folder (`~/.config/z-engine`): its `agents/` is read. */
  readonly userConfigDir?: string;
  /** The user's home: `~/.claude/agents` is read. */
  readonly homeDir?: string;
}

/** Larger agent files are reported, not read. */
export const MAX_AGENT_FILE_BYTES = 256 * 1024;
/** Folders deeper than this below an agents folder are not searched. */
const MAX_DEPTH = 8;
/** At most this many files are read from one agents folder. */
const MAX_FILES = 1_000;

/**
 * The folders searched, highest precedence first: the project's `.z-engine/agents` and
 * `.claude/agents`, then the user's `agents/` in the config folder and `~/.claude/agents`.
 */
export function agentFolders(folders: AgentFolders): { dir: string; source: AgentSource }[] {
  const list: { dir: string; source: AgentSource }[] = [
    { dir: join(folders.projectRoot, ".z-engine", "agents"), source: "project" },
    { dir: join(folders.projectRoot, ".claude", "agents"), source: "project" },
  ];
  if (folders.userConfigDir)
    list.push({ dir: join(folders.userConfigDir, "agents"), source: "user" });
  if (folders.homeDir)
    list.push({ dir: join(folders.homeDir, ".claude", "agents"), source: "user" });
  return list;
}

/** Every `.md` file under `dir` (nested folders, no symlinked folders), sorted; none when missing. */
async function markdownFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, depth: number): Promise<void> => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length >= MAX_FILES) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < MAX_DEPTH && !entry.name.startsWith("."))
        await walk(path, depth + 1);
      else if ((entry.isFile() || entry.isSymbolicLink()) && entry.name.endsWith(".md"))
        found.push(path);
    }
  };
  await walk(dir, 0);
  return found;
}

/** Reads one agent file; a problem instead of a definition when it cannot be used. */
export async function readAgentFile(
  path: string,
  fallbackName: string,
): Promise<{ ok: true; value: AgentDefinition } | { ok: false; error: string }> {
  try {
    const info = await stat(path);
    if (info.size > MAX_AGENT_FILE_BYTES)
      return { ok: false, error: `larger than ${MAX_AGENT_FILE_BYTES / 1024} KiB` };
    const text = await readFile(path, "utf8");
    return parseAgentMarkdown(text, fallbackName);
  } catch (error) {
    return { ok: false, error: `cannot be read: ${(error as Error).message}` };
  }
}

/**
 * Builds the session's agent catalog: custom definitions from the folders of
 * {@link agentFolders} (first name wins, so a project's agent shadows a user's, and either
 * shadows a built-in of the same name), then the built-ins. A file name without `.md` is the
 * fallback name; nested folders are searched. Never rejects: a file that cannot be read or
 * parsed is listed in `problems` and skipped.
 */
export async function discoverAgents(folders: AgentFolders): Promise<AgentCatalog> {
  const types = new Map<string, AgentType>();
  const problems: AgentFileProblem[] = [];
  for (const { dir, source } of agentFolders(folders)) {
    for (const path of await markdownFiles(dir)) {
      const base = relative(dir, path).split(/[\\/]/).pop() ?? "";
      const read = await readAgentFile(path, base.slice(0, -".md".length));
      if (!read.ok) {
        problems.push({ path, error: read.error });
        continue;
      }
      if (!types.has(read.value.name))
        types.set(read.value.name, { definition: read.value, source, path });
    }
  }
  for (const definition of loadBuiltinAgents())
    if (!types.has(definition.name)) types.set(definition.name, { definition, source: "builtin" });
  return { types, problems };
}
