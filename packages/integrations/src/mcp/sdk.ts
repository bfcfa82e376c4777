import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  McpClientHooks,
  McpPromptInfo,
  McpResourceInfo,
  McpResourceTemplateInfo,
  McpToolInfo,
} from "./types.js";

/** The name and version Z Engine gives servers in `initialize`. */
export const CLIENT_INFO = { name: "z-engine", version: "0.0.0" } as const;

/** Methods the engine refuses (when no host answers them), with the reason servers are told. */
const REFUSED: Record<string, string> = {
  "sampling/createMessage": "sampling (asking the client's model) is not supported by Z Engine",
  "elicitation/create": "elicitation (asking the user for input) is not supported by Z Engine",
};

/** JSON-RPC's "method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * A refusal as the SDK sends it: the code and our message as is. (The SDK's own McpError
 * puts "MCP error -32601:" into its message, and the server's SDK adds the prefix again.)
 */
function refusal(method: string): Error {
  const why = REFUSED[method] ?? `${method} is not supported by Z Engine`;
  return Object.assign(new Error(why), { code: METHOD_NOT_FOUND });
}

async function importSdk() {
  const [{ Client }, types, auth, extensions] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/client/auth.js"),
    import("@modelcontextprotocol/sdk/client/auth-extensions.js"),
  ]);
  return {
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    UnauthorizedError: auth.UnauthorizedError,
    refreshAuthorization: auth.refreshAuthorization,
    createPrivateKeyJwtAuth: extensions.createPrivateKeyJwtAuth,
    /**
     * A client advertising only what the hooks answer: elicitation (form mode, the schema's
     * defaults applied to what the user leaves out), roots (with list_changed) and sampling.
     * Any other request from the server gets a clear refusal, never silence.
     */
    newClient(hooks: McpClientHooks = {}): Client {
      const capabilities = {
        ...(hooks.onElicit ? { elicitation: { form: { applyDefaults: true } } } : {}),
        ...(hooks.roots ? { roots: { listChanged: true } } : {}),
        ...(hooks.onSample ? { sampling: {} } : {}),
      };
      const client = new Client({ ...CLIENT_INFO }, { capabilities });
      const { onElicit, roots, onSample } = hooks;
      if (onElicit)
        client.setRequestHandler(types.ElicitRequestSchema, async (request, extra) => {
          const params = request.params;
          if (params.mode === "url") throw refusal("elicitation/create (url mode)");
          const schema = "requestedSchema" in params ? params.requestedSchema : { type: "object" };
          const answer = await onElicit(
            { message: params.message, requestedSchema: schema as Record<string, unknown> },
            extra.signal,
          );
          return { ...answer };
        });
      if (roots)
        client.setRequestHandler(types.ListRootsRequestSchema, async () => ({
          roots: roots().map((r) => ({ uri: r.uri, ...(r.name ? { name: r.name } : {}) })),
        }));
      if (onSample)
        client.setRequestHandler(
          types.CreateMessageRequestSchema,
          async (request, extra) =>
            onSample(request.params as unknown as Record<string, unknown>, extra.signal) as never,
        );
      client.fallbackRequestHandler = async (request) => {
        throw refusal(request.method);
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

/** A listed resource template as the engine keeps it. */
export function toTemplate(t: {
  uriTemplate: string;
  name: string;
  description?: string | undefined;
  mimeType?: string | undefined;
}): McpResourceTemplateInfo {
  return {
    uriTemplate: t.uriTemplate,
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    ...(t.mimeType ? { mimeType: t.mimeType } : {}),
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
