import {
  cleanServerText,
  type McpConnection,
  McpError,
  sanitizeMcpName,
} from "@z-engine/integrations";
import { errorOutput, type McpPort, textOutput, type ToolOutput } from "@z-engine/tools";
import type { McpHub } from "./hub.js";

function failure(error: unknown, signal: AbortSignal): ToolOutput {
  // A cancelled call is rethrown so that the batch reports it as cancelled.
  if (signal.aborted) throw error;
  const message = error instanceof Error ? error.message : String(error);
  return errorOutput(error instanceof McpError ? message : `MCP request failed: ${message}`);
}

function unknownServer(hub: McpHub, server: string): ToolOutput {
  const names = hub.status().map((s) => s.name);
  return errorOutput(
    `No MCP server named "${server}" is running. Servers: ${names.length > 0 ? names.join(", ") : "none"}.`,
  );
}

/** One server's resources and resource templates as lines (a failure is a line too). */
async function serverResources(conn: McpConnection, signal: AbortSignal): Promise<string[]> {
  const lines: string[] = [];
  const about = (r: { mimeType?: string; description?: string }) =>
    `${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? `: ${cleanServerText(r.description, 300)}` : ""}`;
  try {
    for (const r of await conn.listResources(signal))
      lines.push(`${conn.name}: ${r.uri} ${r.name}${about(r)}`);
  } catch (error) {
    if (signal.aborted) throw error;
    lines.push(`${conn.name}: ${(error as Error).message}`);
  }
  // A server without templates answers "method not found": nothing to list.
  const templates = await conn.listResourceTemplates(signal).catch((error) => {
    if (signal.aborted) throw error;
    return [];
  });
  for (const t of templates)
    lines.push(`${conn.name}: template ${t.uriTemplate} ${t.name}${about(t)}`);
  return lines;
}

async function listResources(hub: McpHub, server: string | undefined, signal: AbortSignal) {
  const conns = server === undefined ? hub.connections() : [hub.connection(server)];
  if (server !== undefined && !conns[0]) return unknownServer(hub, server);
  const lines: string[] = [];
  for (const conn of conns) {
    if (!conn || (server === undefined && (conn.state !== "ready" || !conn.offers("resources"))))
      continue;
    lines.push(...(await serverResources(conn, signal)));
  }
  if (lines.some((l) => l.includes(": template ")))
    lines.push("(Read a template's resource with ReadMcpResource, its {placeholders} filled in.)");
  return textOutput(lines.length > 0 ? lines.join("\n") : "No MCP server lists any resource.");
}

/**
 * The McpPort of a session, over its hub. Calls and reads go to the named server's
 * connection (which reconnects once after a drop); failures come back as error outputs that
 * say what went wrong; a cancelled call rejects, so the batch answers it as cancelled.
 */
export function hubPort(hub: McpHub): McpPort {
  return {
    async callTool(server, tool, input, signal, options = {}) {
      const conn = hub.connection(server);
      if (!conn) return unknownServer(hub, server);
      try {
        const result = await conn.callTool(tool, (input ?? {}) as Record<string, unknown>, {
          signal,
          onWaiting: waitingNotice(hub, server, tool, options.onProgress),
          ...(options.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options.vision !== undefined ? { vision: options.vision } : {}),
        });
        return {
          content: result.content,
          isError: result.isError,
          writtenPaths: [],
          artifacts: [],
        };
      } catch (error) {
        return failure(error, signal);
      }
    },
    listResources: (server, signal) => listResources(hub, server, signal),
    async readResource(server, uri, signal) {
      const conn = hub.connection(server);
      if (!conn) return unknownServer(hub, server);
      try {
        const content = await conn.readResource(uri, signal);
        return { content, isError: false, writtenPaths: [], artifacts: [] };
      } catch (error) {
        return failure(error, signal);
      }
    },
    async loadTools(names) {
      const { loaded, unknown } = hub.load(names);
      const parts: string[] = [];
      if (loaded.length > 0)
        parts.push(
          `Loaded ${loaded.join(", ")}; call ${loaded.length > 1 ? "them" : "it"} from your next response on.`,
        );
      if (unknown.length > 0) parts.push(`Unknown MCP tools: ${unknown.join(", ")}.`);
      const text = parts.join("\n");
      return loaded.length > 0 ? textOutput(text) : errorOutput(text);
    },
    ruleName: (server) =>
      hub.status().some((s) => s.name === server) ? sanitizeMcpName(server) : undefined,
    resourceServers: () =>
      hub
        .connections()
        .filter((c) => c.state === "ready" && c.offers("resources"))
        .map((c) => c.name),
  };
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * What a silent call tells: each time, a progress line (live, for the card); the first time,
 * a notice in the log, so that a host sees why the turn is waiting.
 */
function waitingNotice(
  hub: McpHub,
  server: string,
  tool: string,
  onProgress: ((text: string) => void) | undefined,
): (silentMs: number, limitMs: number) => void {
  let told = false;
  return (silentMs, limitMs) => {
    onProgress?.(
      `waiting for the MCP server "${server}": no answer for ${seconds(silentMs)} (gives up after ${seconds(limitMs)})`,
    );
    if (told) return;
    told = true;
    hub.report(
      "warning",
      "mcp.slowCall",
      `The MCP server "${server}" has not answered the call of ${tool} for ${seconds(silentMs)}; the call gives up after ${seconds(limitMs)} without news (set \`timeout\` in the server's entry to change it).`,
    );
  };
}
