import type { McpConnection } from "@z-engine/integrations";

/** One started server, as the start notice names it. */
export interface Started {
  readonly name: string;
  readonly conn: McpConnection;
  readonly tools: number;
}

/**
 * The notice after a batch of starts: the ready servers with their tool counts, the ones
 * waiting for a login with the command that gives it (a session never opens a browser), and
 * the failed ones with the reason. A warning when any is not ready. Pure.
 */
export function startNotice(started: readonly Started[]): {
  level: "info" | "warning";
  text: string;
} {
  const ready = started.filter((s) => s.conn.state === "ready");
  const login = started.filter((s) => s.conn.state === "needsLogin");
  const failed = started.filter((s) => s.conn.state !== "ready" && s.conn.state !== "needsLogin");
  const parts: string[] = [];
  if (ready.length > 0)
    parts.push(`ready: ${ready.map((s) => `${s.name} (${s.tools} tools)`).join(", ")}`);
  if (login.length > 0)
    parts.push(
      `needs login: ${login.map((s) => `${s.name} (run \`zeng mcp login ${s.name}\`)`).join(", ")}`,
    );
  if (failed.length > 0)
    parts.push(
      `failed: ${failed.map((s) => `${s.name} (${s.conn.error ?? s.conn.state})`).join("; ")}`,
    );
  return {
    level: login.length + failed.length > 0 ? "warning" : "info",
    text: `MCP servers ${parts.join("; ")}`,
  };
}
