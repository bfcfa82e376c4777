import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { McpPromptInfo, McpResourceInfo, McpToolInfo } from "./types.js";

/** The name and version Z Engine gives servers in `initialize`. */
export const CLIENT_INFO = { name: "z-engine", version: "0.0.0" } as const;

/** Methods the engine refuses, with the reason servers are told. */
const REFUSED: Record<string, string> = {
  "sampling/createMessage": "sampling (asking the client's model) is not supported by Z Engine",
  "elicitation/create": "elicitation (asking the user for input) is not supported by Z Engine",
};

async function importSdk() {
  const [{ Client }, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    /** A client with no optional capabilities; any request from the server gets a clear refusal. */
    newClient(): Client {
      const client = new Client({ ...CLIENT_INFO }, { capabilities: {} });
      client.fallbackRequestHandler = async (request) => {
        const why = REFUSED[request.method] ?? `${request.method} is not supported by Z Engine`;
        throw new types.McpError(types.ErrorCode.MethodNotFound, why);
      };
      return client;
    },
  };
}

let sdk: ReturnType<typeof importSdk> | undefined;

/** The SDK's client modules, imported on first use only (start-up without MCP does not pay for them). */
export function loadSdk(): ReturnType<typeof importSdk> {
  sdk ??= importSdk();
  return sdk;
}

/** Follows `nextCursor` pages (at most 100) and gathers their items. */
export async function listAll<T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const { items, next } = await page(cursor);
    out.push(...items);
    if (!next) break;
    cursor = next;
  }
  return out;
}

interface ListedTool {
  name: string;
  description?: string | undefined;
  title?: string | undefined;
  inputSchema: Record<string, unknown>;
}

/** A listed tool as the engine keeps it. */
export function toTool(tool: ListedTool): McpToolInfo {
  return {
    name: tool.name,
    description: tool.description ?? tool.title ?? "",
    inputSchema: { ...tool.inputSchema, type: "object" },
  };
}

/** A listed resource as the engine keeps it. */
export function toResource(r: {
  uri: string;
  name: string;
  description?: string | undefined;
  mimeType?: string | undefined;
}): McpResourceInfo {
  return {
    uri: r.uri,
    name: r.name,
    ...(r.description ? { description: r.description } : {}),
    ...(r.mimeType ? { mimeType: r.mimeType } : {}),
  };
}

/** A listed prompt as the engine keeps it. */
export function toPrompt(p: {
  name: string;
  description?: string | undefined;
  arguments?: { name: string; description?: string | undefined; required?: boolean | undefined }[];
}): McpPromptInfo {
  return {
    name: p.name,
    ...(p.description ? { description: p.description } : {}),
    arguments: (p.arguments ?? []).map((a) => ({
      name: a.name,
      ...(a.description ? { description: a.description } : {}),
      required: a.required === true,
    })),
  };
}
