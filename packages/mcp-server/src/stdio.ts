import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

/**
 * Serves an MCP server on the process's stdin and stdout (one client: the process that started
 * this one). Resolves once connected; `closed` settles when the client goes (stdin ends) or
 * the server is closed.
 */
export async function serveMcpStdio(server: McpServer): Promise<{ closed: Promise<void> }> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once("end", () => void server.close().then(resolve, resolve));
  });
  await server.connect(transport);
  return { closed };
}
