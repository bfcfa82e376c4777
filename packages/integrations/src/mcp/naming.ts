import { createHash } from "node:crypto";

/** Characters a tool name may keep; every other one becomes `_` (as Claude Code names them). */
const UNSAFE = /[^A-Za-z0-9_-]/g;

/** The longest tool name offered to a model (OpenAI's limit; Anthropic's is wider). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Room a renamed tool keeps after its server's prefix: some name, `_`, and a 6-digit hash. */
const RENAMED_TAIL = 8;

/** A server or tool name as it appears inside a tool name: other characters become `_`. */
export function sanitizeMcpName(name: string): string {
  return name.replace(UNSAFE, "_");
}

/** The model-facing name of a server's tool: `mcp__<server>__<tool>`, both parts sanitized. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${sanitizeMcpName(server)}__${sanitizeMcpName(tool)}`;
}

/**
 * Why a server's name cannot be used, or undefined when it can. Rules name a tool as
 * `mcp__<server>__<tool>`, so a server whose sanitized name holds `__` or ends in `_` would
 * make a rule such as `mcp__a__b__c` mean two servers; a name so long that none of its tools
 * would fit in {@link MAX_TOOL_NAME_LENGTH} is refused too. Pure.
 */
export function serverNameProblem(name: string): string | undefined {
  const safe = sanitizeMcpName(name);
  if (safe === "") return "an MCP server needs a name";
  if (safe.includes("__") || safe.endsWith("_"))
    return `the name "${name}" cannot be used: as "${safe}" it holds "__" or ends in "_", which makes mcp__ rules ambiguous (rename the server)`;
  if (`mcp__${safe}__`.length + RENAMED_TAIL > MAX_TOOL_NAME_LENGTH)
    return `the name "${name}" is too long: its tools' names would pass ${MAX_TOOL_NAME_LENGTH} characters`;
  return undefined;
}

/** One tool whose model-facing name is not the plain `mcp__<server>__<tool>`, or that is left out. */
export interface ToolRename {
  readonly tool: string;
  /** The name it is offered under; undefined when the tool is left out. */
  readonly name?: string;
  readonly why: string;
}

/** The names of one server's tools, and what was renamed or left out. */
export interface AssignedNames {
  /** The server's own tool name to its model-facing name (tools left out are missing). */
  readonly names: ReadonlyMap<string, string>;
  readonly renamed: readonly ToolRename[];
}

const shortHash = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 6);

/**
 * Gives each of a server's tools a unique model-facing name of at most
 * {@link MAX_TOOL_NAME_LENGTH} characters. The plain name `mcp__<server>__<tool>` is kept
 * when it fits and no other tool has it (a tool whose own name is already plain wins it);
 * otherwise the tool part is cut and a hash of the tool's own name appended, so the name is
 * the same in every session. A tool with no name, or whose new name is taken too, is left
 * out. The server's name must pass {@link serverNameProblem}. Pure.
 */
export function assignToolNames(server: string, tools: readonly string[]): AssignedNames {
  const prefix = `mcp__${sanitizeMcpName(server)}__`;
  const names = new Map<string, string>();
  const renamed: ToolRename[] = [];
  const taken = new Set<string>();
  const unique = [...new Set(tools)];
  // Plain names first (in their order), so that `a_b` keeps its name when `a.b` also exists.
  const order = [
    ...unique.filter((t) => sanitizeMcpName(t) === t),
    ...unique.filter((t) => sanitizeMcpName(t) !== t),
  ];
  const later: string[] = [];
  for (const tool of order) {
    const plain = prefix + sanitizeMcpName(tool);
    if (tool === "") renamed.push({ tool, why: "it has no name" });
    else if (plain.length <= MAX_TOOL_NAME_LENGTH && !taken.has(plain)) {
      names.set(tool, plain);
      taken.add(plain);
    } else later.push(tool);
  }
  for (const tool of later) {
    const plain = prefix + sanitizeMcpName(tool);
    const room = MAX_TOOL_NAME_LENGTH - prefix.length - RENAMED_TAIL + 1;
    const name = `${prefix}${sanitizeMcpName(tool).slice(0, room)}_${shortHash(tool)}`;
    const why =
      plain.length > MAX_TOOL_NAME_LENGTH
        ? `its name is longer than ${MAX_TOOL_NAME_LENGTH} characters`
        : `${plain} is taken by another of its tools`;
    if (taken.has(name)) {
      renamed.push({ tool, why: `${why}, and ${name} is taken too` });
      continue;
    }
    names.set(tool, name);
    taken.add(name);
    renamed.push({ tool, name, why });
  }
  return { names, renamed };
}
