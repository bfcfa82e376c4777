import type { Action } from "@z-engine/policy";
import { z } from "zod";
import type { ToolCtx } from "../ctx.js";
import { defineTool, lazySchema } from "../tool.js";
import { errorOutput } from "../tool-output.js";
import { describe } from "./describe.js";
import { boundMcpOutput } from "./mcp-output.js";

/**
 * The gate's view of reading a server's resources: an MCP action of that server, so that the
 * server's `mcp__<server>` rules (deny and ask included) decide it as they decide its tools,
 * under the tool part `ListMcpResources` / `ReadMcpResource`; plan mode lets it run (it only
 * reads). A server the session does not
 * know keeps its own name (the call then fails with the list of servers).
 */
function resourceAction(ctx: ToolCtx, server: string, tool: string): Action {
  return { kind: "mcp", server: ctx.ports.mcp?.ruleName(server) ?? server, tool, readOnly: true };
}

const ListInput = lazySchema(() =>
  z.strictObject({
    server: z.string().min(1).optional().describe("Only this server's resources"),
  }),
);

/**
 * ListMcpResources: the resources and resource templates connected MCP servers expose. Gated
 * as an MCP action of each server it lists (every ready server offering resources when no
 * server is named), so a server's deny rule holds here too.
 */
export const listMcpResourcesTool = defineTool({
  name: "ListMcpResources",
  description: describe("ListMcpResources", "Lists the resources that MCP servers offer."),
  inputSchema: ListInput,
  requires: ["mcp"],
  isReadOnly: () => true,
  action: async (input, ctx) => {
    const servers = input.server ? [input.server] : (ctx.ports.mcp?.resourceServers() ?? []);
    return servers.length > 0
      ? servers.map((s) => resourceAction(ctx, s, "ListMcpResources"))
      : [{ kind: "none" }];
  },
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

/**
 * ReadMcpResource: one resource's content, by server and URI, gated as an MCP action of the
 * server; long text is stored as an artifact like any tool output.
 */
export const readMcpResourceTool = defineTool({
  name: "ReadMcpResource",
  description: describe("ReadMcpResource", "Reads one MCP resource by server and uri."),
  inputSchema: ReadInput,
  requires: ["mcp"],
  isReadOnly: () => true,
  action: async (input, ctx) => [resourceAction(ctx, input.server, "ReadMcpResource")],
  title: (input) => `ReadMcpResource ${input.server} ${input.uri}`,
  call: async (input, ctx) => {
    const mcp = ctx.ports.mcp;
    if (!mcp) return errorOutput("MCP servers are not available in this session.");
    const output = await mcp.readResource(input.server, input.uri, ctx.signal);
    return boundMcpOutput(output, "ReadMcpResource.txt", ctx);
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
