import type { SessionHandle } from "../session/handle.js";
import { targetOf } from "./registry.js";

/**
 * The names of the tools a session offers the model now: built-in and host tools, then the
 * MCP tools of its ready servers (a list above the deferral limit offers its search tool
 * instead). Throws a `QueryError` for a handle the engine did not make.
 */
export function sessionToolNames(handle: SessionHandle): string[] {
  const { session } = targetOf(handle);
  return [...session.tools, ...session.mcp.requestTools()].map((t) => t.name);
}
