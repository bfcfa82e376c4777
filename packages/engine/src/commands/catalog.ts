import { builtinCommands, type CommandDefinition } from "@z-engine/prompts";
import type { McpPromptCommand } from "../mcp/prompts.js";
import { ENGINE_BUILTINS, type EngineBuiltin } from "./builtins.js";
import {
  type CustomCommand,
  type DefinitionRoots,
  discoverCommands,
  discoverSkills,
} from "../definitions/discover.js";
import { skillCommand } from "./skill-command.js";

/**
 * A command's kind: answered by the engine, a custom or built-in prompt, a user-invocable
 * skill (`/<skill-name>`), or an MCP prompt.
 */
export type SlashCommandKind = "engine" | "custom" | "skill" | "prompt" | "mcp";

/** A catalog entry as a UI lists it for `/` completion. */
export interface SlashCommandInfo {
  /**
   * The name without the slash, e.g. `cost`, `frontend:component`, `mcp__github__review`. A
   * command in a subfolder is also listed under its file name alone (`component`, Claude
   * Code's name for it) when nothing else has that name.
   */
  readonly name: string;
  readonly kind: SlashCommandKind;
  readonly description: string;
  readonly argumentHint?: string;
  /** Where a custom command lives: `project` or `user`. */
  readonly scope?: "project" | "user";
}

/** A resolved entry: the listing and what runs it. */
export type CatalogEntry =
  | (SlashCommandInfo & { readonly kind: "engine"; readonly builtin: EngineBuiltin })
  | (SlashCommandInfo & {
      readonly kind: "custom" | "skill" | "prompt";
      readonly definition: CommandDefinition | CustomCommand;
    })
  | (SlashCommandInfo & { readonly kind: "mcp"; readonly prompt: McpPromptCommand });

/** One catalog, first name wins, and the files that could not be used. */
export interface Catalog {
  readonly entries: readonly CatalogEntry[];
  readonly problems: readonly string[];
}

function hint(value: string | undefined): { argumentHint?: string } {
  return value ? { argumentHint: value } : {};
}

/** `frontend:component` is also `/component`, described as Claude Code shows it. */
function shortNames(custom: readonly CustomCommand[]): CatalogEntry[] {
  return custom
    .filter((c) => c.name.includes(":"))
    .map((c): CatalogEntry => {
      const parts = c.name.split(":");
      const label = `(${c.scope}:${parts.slice(0, -1).join(":")})`;
      return {
        name: parts[parts.length - 1] as string,
        kind: "custom",
        description: c.description ? `${c.description} ${label}` : label,
        ...hint(c.argumentHint),
        scope: c.scope,
        definition: c,
      };
    });
}

function customEntry(kind: "custom" | "skill", c: CustomCommand): CatalogEntry {
  return {
    name: c.name,
    kind,
    description: c.description,
    ...hint(c.argumentHint),
    scope: c.scope,
    definition: c,
  };
}

/**
 * The session's commands in precedence order: engine built-ins, user-invocable skills (a skill
 * wins over a command of its name, as in Claude Code), custom commands (project
 * `.z-engine/commands` > project `.claude/commands` > user folders), prompt built-ins, MCP
 * prompts, then the short names of subfolder commands. The first entry of a name wins, so a
 * custom command may shadow a prompt built-in (`review`) but never an engine built-in (`cost`).
 * Skill files that cannot be used are reported when the session opens, not here. Never rejects.
 */
export async function buildCatalog(
  roots: DefinitionRoots,
  mcpPrompts: () => Promise<readonly McpPromptCommand[]>,
): Promise<Catalog> {
  const [custom, skills, mcp] = await Promise.all([
    discoverCommands(roots),
    discoverSkills(roots),
    mcpPrompts().catch(() => []),
  ]);
  const invocable = skills.items.filter((s) => s.userInvocable).map(skillCommand);
  const all: CatalogEntry[] = [
    ...ENGINE_BUILTINS.map(
      (b): CatalogEntry => ({
        name: b.name,
        kind: "engine",
        description: b.description,
        ...hint(b.argumentHint),
        builtin: b,
      }),
    ),
    ...invocable.map((c) => customEntry("skill", c)),
    ...custom.items.map((c) => customEntry("custom", c)),
    ...builtinCommands().map(
      (c): CatalogEntry => ({
        name: c.name,
        kind: "prompt",
        description: c.description,
        ...hint(c.argumentHint),
        definition: c,
      }),
    ),
    ...mcp.map(
      (p): CatalogEntry => ({
        name: p.name,
        kind: "mcp",
        description: p.prompt.description ?? `MCP prompt from ${p.server}`,
        ...hint(p.prompt.arguments.map((a) => `<${a.name}>`).join(" ") || undefined),
        prompt: p,
      }),
    ),
    ...shortNames(custom.items),
  ];
  const seen = new Set<string>();
  const entries = all.filter((e) => !seen.has(e.name) && seen.add(e.name));
  const shadowed = [...invocable, ...custom.items].filter((c) =>
    ENGINE_BUILTINS.some((b) => b.name === c.name),
  );
  const problems = [
    ...custom.problems,
    ...shadowed.map((c) => `${c.path}: /${c.name} is an engine command; the file is not used`),
  ];
  return { entries, problems };
}

/** The listing of an entry (what a UI shows), without what runs it. */
export function commandInfo(entry: CatalogEntry): SlashCommandInfo {
  return {
    name: entry.name,
    kind: entry.kind,
    description: entry.description,
    ...hint(entry.argumentHint),
    ...(entry.scope ? { scope: entry.scope } : {}),
  };
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(here + 1, (row[j - 1] as number) + 1, prev + cost);
      prev = here;
    }
  }
  return row[b.length] as number;
}

/** Up to three names close to `name` (edit distance within a third of its length, or a prefix). */
export function closeMatches(name: string, names: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return names
    .map((candidate) => ({ candidate, d: distance(name, candidate) }))
    .filter(({ candidate, d }) => d <= limit || candidate.startsWith(name))
    .sort((a, b) => a.d - b.d || a.candidate.localeCompare(b.candidate))
    .slice(0, 3)
    .map(({ candidate }) => candidate);
}
