import {
  assignToolNames,
  cleanServerText,
  type McpToolInfo,
  sanitizeMcpName,
  type ToolRename,
} from "@z-engine/integrations";
import { createMcpTool, type Tool } from "@z-engine/tools";

/** Above this many MCP tools in all, their definitions are deferred (names in a reminder). */
export const DEFER_ABOVE = 40;

/** One server's tools as the model gets them, and the tools renamed or left out on the way. */
export interface ServerCatalog {
  readonly tools: Tool[];
  readonly renamed: readonly ToolRename[];
}

/**
 * The tools of one ready server, minus its disabled ones, as engine tools sorted by name:
 * unique names of at most 64 characters (see `assignToolNames`), descriptions cleaned of
 * hidden characters and cut to 2,048 characters. Rules name a tool by the name it is offered
 * under. Pure.
 */
export function serverTools(
  server: string,
  tools: readonly McpToolInfo[],
  disabled: ReadonlySet<string>,
): ServerCatalog {
  const offered = tools.filter((t) => !disabled.has(t.name));
  const { names, renamed } = assignToolNames(
    server,
    offered.map((t) => t.name),
  );
  const prefix = `mcp__${sanitizeMcpName(server)}__`;
  const seen = new Set<string>();
  const built: Tool[] = [];
  for (const t of offered) {
    const name = names.get(t.name);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    built.push(
      createMcpTool({
        name,
        server,
        tool: t.name,
        ruleServer: sanitizeMcpName(server),
        ruleTool: name.slice(prefix.length),
        description: cleanServerText(t.description),
        inputSchema: t.inputSchema,
      }),
    );
  }
  built.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { tools: built, renamed };
}

/** The notice text for a server's renamed and left-out tools (empty when none). */
export function renameNotice(server: string, renamed: readonly ToolRename[]): string {
  if (renamed.length === 0) return "";
  const shown = (tool: string) =>
    JSON.stringify(tool.length > 80 ? `${tool.slice(0, 77)}...` : tool);
  const parts = renamed.map((r) =>
    r.name
      ? `${shown(r.tool)} is offered as ${r.name} (${r.why})`
      : `${shown(r.tool)} is left out (${r.why})`,
  );
  return `MCP server "${server}": ${parts.join("; ")}.`;
}

/** A tool's description cut to its first line (120 characters at most), for the deferred list. */
export function firstLine(description: string): string {
  const line = description.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 120 ? `${line.slice(0, 117)}...` : line.trim();
}

/** The reminder that lists deferred MCP tools by name and one-line summary. */
export function deferredReminderText(tools: readonly Tool[]): string {
  const lines = tools.map((t) => `- ${t.name}: ${firstLine(t.description)}`);
  return [
    `${tools.length} MCP tools are connected. Their definitions are not loaded: call LoadMcpTools with the names you need, then call them from your next response on.`,
    ...lines,
  ].join("\n");
}
