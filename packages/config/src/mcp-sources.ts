import type { LayerLevel } from "./effective.js";
import type { SettingsLayer } from "./layer-file.js";

/** Where an effective MCP server entry came from: the highest layer that defines it. */
export interface McpServerSource {
  readonly level: LayerLevel;
  readonly file: string;
  /** True for `.mcp.json`, the project's settings.toml and settings.local.toml. */
  readonly projectDefined: boolean;
}

/** The environment variables one project-defined server entry names in `${VAR}`. */
export interface ProjectServerVariables {
  readonly server: string;
  readonly file: string;
  /** In order of first use, without repeats. */
  readonly variables: readonly string[];
}

const isProject = (level: LayerLevel) => level === "project" || level === "local";
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g;

/**
 * For each server name in any layer, the layer its effective entry comes from (a higher
 * layer's entry replaces a lower one of the same name, as the merge does). Pure.
 */
export function mcpServerSources(
  layers: readonly SettingsLayer[],
): Record<string, McpServerSource> {
  const out: Record<string, McpServerSource> = {};
  for (const layer of layers)
    for (const name of Object.keys(layer.values.mcp?.servers ?? {}))
      out[name] = {
        level: layer.level,
        file: layer.file,
        projectDefined: isProject(layer.level),
      };
  return out;
}

/**
 * The `${VAR}` names each effective project-defined server uses in its command, args, env,
 * url and headers, for the trust report: trusting the folder hands those variables' values
 * to the project's program or URL (the engine never expands a model provider's key there).
 * Servers naming none are left out. Pure.
 */
export function projectServerVariables(layers: readonly SettingsLayer[]): ProjectServerVariables[] {
  const sources = mcpServerSources(layers);
  const out: ProjectServerVariables[] = [];
  for (const [server, source] of Object.entries(sources)) {
    if (!source.projectDefined) continue;
    const layer = [...layers].reverse().find((l) => l.values.mcp?.servers?.[server]);
    const entry = layer?.values.mcp?.servers?.[server];
    if (!entry) continue;
    const texts = [
      entry.command ?? "",
      ...(entry.args ?? []),
      ...Object.values(entry.env ?? {}),
      entry.url ?? "",
      ...Object.values(entry.headers ?? {}),
    ];
    const variables = [
      ...new Set(texts.flatMap((t) => [...t.matchAll(REFERENCE)].map((m) => m[1] as string))),
    ];
    if (variables.length > 0) out.push({ server, file: source.file, variables });
  }
  return out;
}
