import type { McpServer } from "@z-engine/config";
import type { McpServerSpec } from "@z-engine/integrations";

/** One configured server as the hub runs it: the client's spec and the engine's own keys. */
export interface ServerEntry {
  readonly spec: McpServerSpec;
  readonly enabled: boolean;
  readonly disabledTools: ReadonlySet<string>;
  /** The entry's settings as text: a different key means the entry changed (restart it). */
  readonly key: string;
}

/**
 * The effective `mcp.servers` as hub entries: the transport follows `type`, else `command`
 * (stdio) or `url` (streamable HTTP). Pure.
 */
export function serverEntries(servers: Readonly<Record<string, McpServer>>): ServerEntry[] {
  return Object.entries(servers).map(([name, s]) => {
    const type = s.type ?? (s.command !== undefined ? "stdio" : "http");
    const spec: McpServerSpec = {
      name,
      type,
      ...(s.command !== undefined ? { command: s.command } : {}),
      ...(s.args ? { args: s.args } : {}),
      ...(s.env ? { env: s.env } : {}),
      ...(s.url !== undefined ? { url: s.url } : {}),
      ...(s.headers ? { headers: s.headers } : {}),
      ...(s.timeout !== undefined ? { timeoutMs: s.timeout } : {}),
    };
    return {
      spec,
      enabled: s.enabled !== false,
      disabledTools: new Set(s.disabled_tools ?? []),
      key: JSON.stringify(s),
    };
  });
}
