import type {
  McpServer,
  SessionConfigOption,
  SessionMode,
  SessionModeState,
} from "@agentclientprotocol/sdk";
import type { PermissionMode } from "@z-engine/protocol";

/** The engine's permission modes as ACP session modes. */
export const MODES: readonly SessionMode[] = [
  {
    id: "ask",
    name: "Ask",
    description: "Asks before edits and commands that no rule allows",
  },
  {
    id: "acceptEdits",
    name: "Accept edits",
    description: "Edits files in the project without asking; asks before other commands",
  },
  {
    id: "plan",
    name: "Plan",
    description: "Reads and plans; changes nothing until you approve the plan",
  },
  {
    id: "bypass",
    name: "Bypass permissions",
    description: "Runs every call without asking (deny rules still hold)",
  },
];

/** Claude Code's mode names, as clients that know them send them. */
const ALIASES: Readonly<Record<string, PermissionMode>> = {
  default: "ask",
  bypassPermissions: "bypass",
};

/** The permission mode of an ACP mode id (ours or Claude Code's), or undefined. */
export function modeOf(id: string): PermissionMode | undefined {
  if (MODES.some((m) => m.id === id)) return id as PermissionMode;
  return ALIASES[id];
}

/** `modes` of a session response. */
export function modeState(mode: PermissionMode): SessionModeState {
  return { currentModeId: mode, availableModes: [...MODES] };
}

/** The session's selectors: the mode, and the model among the session's and the host's list. */
export function configOptions(
  mode: PermissionMode,
  model: string,
  models: readonly string[],
): SessionConfigOption[] {
  const choices = [...new Set([model, ...models])];
  return [
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: mode,
      options: MODES.map((m) => ({
        value: m.id,
        name: m.name,
        description: m.description ?? null,
      })),
    },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: model,
      options: choices.map((id) => ({ value: id, name: id })),
    },
  ];
}

function record(pairs: ReadonlyArray<{ name: string; value: string }>): Record<string, string> {
  return Object.fromEntries(pairs.map((p) => [p.name, p.value]));
}

/**
 * The client's MCP servers as a settings layer (`{ mcp: { servers } }`), joined to the
 * session's own: stdio servers with their command, arguments and variables, HTTP and SSE ones
 * with their URL and headers. Pure.
 */
export function mcpSettings(servers: readonly McpServer[]): Record<string, unknown> | undefined {
  if (servers.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const server of servers) {
    if ("type" in server && (server.type === "http" || server.type === "sse"))
      out[server.name] = { type: server.type, url: server.url, headers: record(server.headers) };
    else if ("command" in server)
      out[server.name] = { command: server.command, args: server.args, env: record(server.env) };
  }
  return { mcp: { servers: out } };
}
