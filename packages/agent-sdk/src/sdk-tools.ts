// In-process MCP tools (`tool()` + `createSdkMcpServer()`), offered as engine tools named
// `mcp__<server>__<tool>` whose gate action is the MCP call: the engine's one gate decides.
import { defineTool, errorOutput, type Tool, type ToolOutput } from "@z-engine/tools";
import { z } from "zod";

/** What a tool handler returns: MCP's CallToolResult (text blocks are what zeng reads). */
export interface CallToolResult {
  content: Array<{ type: "text"; text: string } | { type: string; [key: string]: unknown }>;
  isError?: boolean;
}

/** A tool of an in-process server, made by {@link tool}. */
export interface SdkMcpToolDefinition<Schema extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  description: string;
  inputSchema: Schema;
  handler: (args: z.infer<z.ZodObject<Schema>>, extra: unknown) => Promise<CallToolResult>;
  annotations?: { readOnlyHint?: boolean };
}

/** An in-process server, made by {@link createSdkMcpServer}, for `options.mcpServers`. */
export interface SdkMcpServer {
  type: "sdk";
  name: string;
  /** The server's tools (the Agent SDK keeps an MCP server instance here; zeng needs none). */
  instance: { readonly tools: ReadonlyArray<SdkMcpToolDefinition> };
}

/** Defines a tool for {@link createSdkMcpServer}; the handler's args are the validated input. */
export function tool<Schema extends z.ZodRawShape>(
  name: string,
  description: string,
  inputSchema: Schema,
  handler: (args: z.infer<z.ZodObject<Schema>>, extra: unknown) => Promise<CallToolResult>,
  extras: { annotations?: { readOnlyHint?: boolean } } = {},
): SdkMcpToolDefinition<Schema> {
  return { name, description, inputSchema, handler, ...extras };
}

/** An in-process MCP server: its tools run in the host's process, after the engine's gate. */
export function createSdkMcpServer(options: {
  name: string;
  version?: string;
  // biome-ignore lint/suspicious/noExplicitAny: each tool keeps its own schema type
  tools?: Array<SdkMcpToolDefinition<any>>;
}): SdkMcpServer {
  return { type: "sdk", name: options.name, instance: { tools: options.tools ?? [] } };
}

function outputOf(result: CallToolResult): ToolOutput {
  const text = result.content
    .map((b) => (b.type === "text" && typeof b.text === "string" ? b.text : `[${b.type}]`))
    .join("\n");
  return {
    content: [{ type: "text", text }],
    isError: result.isError === true,
    writtenPaths: [],
    artifacts: [],
  };
}

function engineTool(server: string, def: SdkMcpToolDefinition): Tool {
  const readOnly = def.annotations?.readOnlyHint === true;
  return defineTool({
    name: `mcp__${server}__${def.name}`,
    description: def.description,
    inputSchema: () => z.object(def.inputSchema),
    isReadOnly: () => readOnly,
    action: async () => [{ kind: "mcp", server, tool: def.name }],
    call: async (input) => {
      try {
        return outputOf(await def.handler(input as never, {}));
      } catch (error) {
        return errorOutput(`${def.name} failed: ${(error as Error).message}`);
      }
    },
  });
}

/** The engine tools of every in-process server among `servers`. */
export function sdkServerTools(servers: ReadonlyArray<[string, SdkMcpServer]>): Tool[] {
  return servers.flatMap(([name, s]) => s.instance.tools.map((t) => engineTool(name, t)));
}
