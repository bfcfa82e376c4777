import { z } from "zod";
import { lazily } from "./lazy.js";

/**
 * One MCP server's state as hosts show it (`/mcp`, `zeng mcp list`). `disabled`: the entry
 * has `enabled = false`; `disconnected`: its connection dropped and the next call reconnects
 * once; `stopped`: the session closed it or its entry was removed; `needsLogin`: a remote
 * server wants an OAuth login, which the host offers as an action (`session.mcp.login`, or
 * `zeng mcp login <server>`); `error` says so.
 */
export const McpServerStatus = lazily(() =>
  z.object({
    name: z.string(),
    state: z.enum([
      "starting",
      "ready",
      "failed",
      "disconnected",
      "stopped",
      "disabled",
      "needsLogin",
    ]),
    transport: z.enum(["stdio", "http", "sse"]),
    /** Tools it offers (after `disabled_tools`). */
    tools: z.number().int().nonnegative(),
    /** Why it failed or disconnected. */
    error: z.string().optional(),
    /** Milliseconds its last start took, once ready. */
    startMs: z.number().nonnegative().optional(),
  }),
);
export type McpServerStatus = z.infer<typeof McpServerStatus>;
