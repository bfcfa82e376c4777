import { z } from "zod";
import { defineTool, lazySchema } from "../tool.js";
import { errorOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const ListInput = lazySchema(() =>
  z.strictObject({
    server: z.string().min(1).optional().describe("Only this server's resources"),
  }),
);

/**
 * ListMcpResources: the resources connected MCP servers expose. Reading what a server lists
 * changes nothing, so it is not gated (like listing its tools); reading one is ReadMcpResource.
 */
export const listMcpResourcesTool = defineTool({
  name: "ListMcpResources",
  description: describe("ListMcpResources", "Lists the resources that MCP servers offer."),
  inputSchema: ListInput,
  requires: ["mcp"],
  isReadOnly: () => true,
  title: (input) => (input.server ? `ListMcpResources ${input.server}` : "ListMcpResources"),
  call: async (input, ctx) => {
    const mcp = ctx.ports.mcp;
    if (!mcp) return errorOutput("MCP servers are not available in this session.");
    return mcp.listResources(input.server, ctx.signal);
  },
});

const ReadInput = lazySchema(() =>
  z.strictObject({
    server: z.string().min(1).describe("The server, as ListMcpResources names it"),
    uri: z.string().min(1).describe("The resource's URI"),
  }),
);

/** ReadMcpResource: one resource's content, by server and URI. Read-only, not gated. */
export const readMcpResourceTool = defineTool({
  name: "ReadMcpResource",
  description: describe("ReadMcpResource", "Reads one MCP resource by server and uri."),
  inputSchema: ReadInput,
  requires: ["mcp"],
  isReadOnly: () => true,
  title: (input) => `ReadMcpResource ${input.server} ${input.uri}`,
  call: async (input, ctx) => {
    const mcp = ctx.ports.mcp;
    if (!mcp) return errorOutput("MCP servers are not available in this session.");
    return mcp.readResource(input.server, input.uri, ctx.signal);
  },
});

const LoadInput = lazySchema(() =>
  z.strictObject({
    names: z
      .array(z.string().min(1))
      .min(1)
      .describe("MCP tool names, e.g. mcp__github__create_issue"),
  }),
);

/**
 * LoadMcpTools: adds deferred MCP tool definitions from the next request on. The engine offers
 * it only while MCP tool definitions are deferred (above 40 MCP tools).
 */
export const loadMcpToolsTool = defineTool({
  name: "LoadMcpTools",
  description: describe("LoadMcpTools", "Loads the definitions of MCP tools listed by name only."),
  inputSchema: LoadInput,
  requires: ["mcp"],
  isReadOnly: () => true,
  title: (input) => `LoadMcpTools ${input.names.join(", ")}`,
  call: async (input, ctx) => {
    const mcp = ctx.ports.mcp;
    if (!mcp) return errorOutput("MCP servers are not available in this session.");
    return mcp.loadTools(input.names);
  },
});
