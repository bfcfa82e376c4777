/** Characters a tool name may keep; every other one becomes `_` (as Claude Code names them). */
const UNSAFE = /[^A-Za-z0-9_-]/g;

/** A server or tool name as it appears inside a tool name: other characters become `_`. */
export function sanitizeMcpName(name: string): string {
  return name.replace(UNSAFE, "_");
}

/** The model-facing name of a server's tool: `mcp__<server>__<tool>`, both parts sanitized. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${sanitizeMcpName(server)}__${sanitizeMcpName(tool)}`;
}
