import { join, relative } from "node:path";
import { type AgentDefinition, loadBuiltinAgents, parseAgentMarkdown } from "@z-engine/prompts";
import type { ProjectFileReader } from "@z-engine/protocol";
import type { DefinitionDoors } from "../definitions/discover.js";
import type { HostAgent } from "../settings/session-config.js";
import { isPlainName } from "../util/plain-name.js";

/** Where a definition came from; a project's agents are capped by their caller's mode. */
export type AgentSource = "builtin" | "project" | "user" | "host";

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
  /** The doors: the project's folders through `project`, the user's through `user`. */
  readonly files: DefinitionDoors;
  /** The host's agents in code (SessionOverrides' `agents`), ahead of every file. */
  readonly hostAgents?: Readonly<Record<string, HostAgent>>;
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
export function agentFolders(
  folders: AgentFolders,
): { dir: string; source: AgentSource; files: ProjectFileReader }[] {
  const { project, user } = folders.files;
  const list: { dir: string; source: AgentSource; files: ProjectFileReader }[] = [
    { dir: join(folders.projectRoot, ".z-engine", "agents"), source: "project", files: project },
    { dir: join(folders.projectRoot, ".claude", "agents"), source: "project", files: project },
  ];
  if (folders.userConfigDir)
    list.push({ dir: join(folders.userConfigDir, "agents"), source: "user", files: user });
  if (folders.homeDir)
    list.push({ dir: join(folders.homeDir, ".claude", "agents"), source: "user", files: user });
  return list;
}

/** Every `.md` file under `dir` (nested folders; links are never entered), sorted; none when missing. */
async function markdownFiles(files: ProjectFileReader, dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string, depth: number): Promise<void> => {
    for (const entry of (await files.list(folder)) ?? []) {
      if (found.length >= MAX_FILES) return;
      const path = join(folder, entry.name);
      if (entry.kind === "folder" && depth < MAX_DEPTH && !entry.name.startsWith("."))
        await walk(path, depth + 1);
      else if ((entry.kind === "file" || entry.kind === "link") && entry.name.endsWith(".md"))
        found.push(path);
    }
  };
  await walk(dir, 0);
  return found;
}

/**
 * Reads one agent file through its door; a problem instead of a definition when it cannot be
 * used (refused by the door, larger than {@link MAX_AGENT_FILE_BYTES}, malformed, or naming
 * itself with a name that is not plain).
 */
export async function readAgentFile(
  files: ProjectFileReader,
  path: string,
  fallbackName: string,
): Promise<{ ok: true; value: AgentDefinition } | { ok: false; error: string }> {
  const read = await files.readText(path, { maxBytes: MAX_AGENT_FILE_BYTES });
  if (!read.ok) {
    if (read.reason === "tooLarge")
      return { ok: false, error: `larger than ${MAX_AGENT_FILE_BYTES / 1024} KiB` };
    return { ok: false, error: `cannot be read: ${read.message}` };
  }
  const parsed = parseAgentMarkdown(read.text, fallbackName);
  if (parsed.ok && !isPlainName(parsed.value.name))
    return { ok: false, error: `agent name "${parsed.value.name}" is not a plain name` };
  return parsed;
}

function hostDefinition(name: string, agent: HostAgent): AgentDefinition {
  return {
    name,
    description: agent.description,
    tools: agent.tools && !agent.tools.includes("*") ? [...agent.tools] : undefined,
    disallowedTools: [...(agent.disallowedTools ?? [])],
    model: agent.model ?? "inherit",
    permissionMode: undefined,
    maxTurns: undefined,
    skills: [],
    color: undefined,
    prompt: agent.prompt.trim(),
    hooks: { hooks: [], problems: [] },
  };
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
  for (const [name, agent] of Object.entries(folders.hostAgents ?? {})) {
    if (!isPlainName(name)) problems.push({ path: `agents.${name}`, error: "not a plain name" });
    else types.set(name, { definition: hostDefinition(name, agent), source: "host" });
  }
  for (const { dir, source, files } of agentFolders(folders)) {
    for (const path of await markdownFiles(files, dir)) {
      const base = relative(dir, path).split(/[\\/]/).pop() ?? "";
      const read = await readAgentFile(files, path, base.slice(0, -".md".length));
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
