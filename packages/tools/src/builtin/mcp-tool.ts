import { z } from "zod";
import type { Tool } from "../tool.js";
import { defineTool, lazySchema } from "../tool.js";
import { errorOutput } from "../tool-output.js";
import { boundMcpOutput } from "./mcp-output.js";

/** What a server's tool is offered as. */
export interface McpToolDefinition {
  /** The model-facing name, `mcp__<server>__<tool>` (sanitized). */
  readonly name: string;
  /** The server and tool by their own names, for the call. */
  readonly server: string;
  readonly tool: string;
  /** The sanitized server and tool names, as rules such as `mcp__github__create_issue` name them. */
  readonly ruleServer: string;
  readonly ruleTool: string;
  readonly description: string;
  /** The JSON Schema the server listed. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** Any JSON object; the server validates its own input. */
const AnyObject = lazySchema(() => z.record(z.string(), z.unknown()));

/**
 * The tool that stands for one MCP server tool: offered under its `mcp__` name with the
 * server's own JSON Schema, gated as an `mcp` action (so MCP tools ask until a rule allows
 * them, read-only or not), called through the McpPort with progress and cancellation; long
 * text is spilled to the artifact sink like any tool output. Never throws from `call`.
 */
export function createMcpTool(def: McpToolDefinition): Tool<Record<string, unknown>> {
  const tool = defineTool({
    name: def.name,
    description: def.description || `The MCP tool ${def.tool} of ${def.server}.`,
    inputSchema: AnyObject,
    requires: ["mcp"],
    isReadOnly: () => false,
    action: async () => [{ kind: "mcp", server: def.ruleServer, tool: def.ruleTool }],
    title: () => `${def.server}: ${def.tool}`,
    call: async (input, ctx) => {
      const mcp = ctx.ports.mcp;
      if (!mcp) return errorOutput("MCP servers are not available in this session.");
      const output = await mcp.callTool(def.server, def.tool, input, ctx.signal, {
        onProgress: ctx.onProgress,
        vision: ctx.vision,
      });
      return boundMcpOutput(output, `${def.name}.txt`, ctx);
    },
  });
  return { ...tool, inputJsonSchema: def.inputSchema };
}
