import { builtinCommands, type CommandDefinition } from "@z-engine/prompts";
import type { McpPromptCommand } from "../mcp/prompts.js";
import { ENGINE_BUILTINS, type EngineBuiltin } from "./builtins.js";
import { type CustomCommand, type DefinitionRoots, discoverCommands } from "./discover.js";

/** A command's kind: answered by the engine, a custom or built-in prompt, or an MCP prompt. */
export type SlashCommandKind = "engine" | "custom" | "prompt" | "mcp";

/** A catalog entry as a UI lists it for `/` completion. */
export interface SlashCommandInfo {
  /** The name without the slash, e.g. `cost`, `frontend:component`, `mcp__github__review`. */
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
      readonly kind: "custom" | "prompt";
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

/**
 * The session's commands in precedence order: engine built-ins, custom commands (project
 * `.z-engine/commands` > project `.claude/commands` > user folders), prompt built-ins, MCP
 * prompts. The first entry of a name wins, so a custom command may shadow a prompt built-in
 * (`review`) but never an engine built-in (`cost`). Never rejects.
 */
export async function buildCatalog(
  roots: DefinitionRoots,
  mcpPrompts: () => Promise<readonly McpPromptCommand[]>,
): Promise<Catalog> {
  const [custom, mcp] = await Promise.all([discoverCommands(roots), mcpPrompts().catch(() => [])]);
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
    ...custom.items.map(
      (c): CatalogEntry => ({
        name: c.name,
        kind: "custom",
        description: c.description,
        ...hint(c.argumentHint),
        scope: c.scope,
        definition: c,
      }),
    ),
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
  ];
  const seen = new Set<string>();
  const entries = all.filter((e) => !seen.has(e.name) && seen.add(e.name));
  const shadowed = custom.items.filter((c) => ENGINE_BUILTINS.some((b) => b.name === c.name));
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
