import { mcpToolName, type McpToolInfo, sanitizeMcpName } from "@z-engine/integrations";
import { createMcpTool, type Tool } from "@z-engine/tools";

/** Above this many MCP tools in all, their definitions are deferred (names in a reminder). */
export const DEFER_ABOVE = 40;

/** The tools of one ready server, minus its disabled ones, as engine tools sorted by name. */
export function serverTools(
  server: string,
  tools: readonly McpToolInfo[],
  disabled: ReadonlySet<string>,
): Tool[] {
  return tools
    .filter((t) => !disabled.has(t.name))
    .map((t) =>
      createMcpTool({
        name: mcpToolName(server, t.name),
        server,
        tool: t.name,
        ruleServer: sanitizeMcpName(server),
        ruleTool: sanitizeMcpName(t.name),
        description: t.description,
        inputSchema: t.inputSchema,
      }),
    )
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A tool's description cut to its first line, for the deferred list. */
function summary(description: string): string {
  const line = description.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 120 ? `${line.slice(0, 117)}...` : line.trim();
}

/** The reminder that lists deferred MCP tools by name and one-line summary. */
export function deferredReminderText(tools: readonly Tool[]): string {
  const lines = tools.map((t) => `- ${t.name}: ${summary(t.description)}`);
  return [
    `${tools.length} MCP tools are connected. Their definitions are not loaded: call LoadMcpTools with the names you need, then call them from your next response on.`,
    ...lines,
  ].join("\n");
}
