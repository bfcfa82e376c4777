// The `system` `init` message: what the session runs with, before its first turn.
import { randomUUID } from "node:crypto";
import { type SessionHandle, sessionStatus, sessionToolNames } from "@z-engine/engine";
import type { McpServerStatus as EngineServerStatus } from "@z-engine/protocol";
import type { SessionSetup } from "./session-setup.js";
import type { McpServerStatus, PermissionMode, SDKSystemMessage } from "./types.js";

const STATES: Readonly<Record<EngineServerStatus["state"], McpServerStatus["status"]>> = {
  starting: "pending",
  ready: "connected",
  failed: "failed",
  disconnected: "failed",
  stopped: "failed",
  disabled: "disabled",
  needsLogin: "needs-auth",
};

/** The MCP servers' states in the SDK's words, in-process servers (always connected) first. */
export function serverStates(session: SessionHandle, setup: SessionSetup): McpServerStatus[] {
  return [
    ...setup.sdkServers.map((name) => ({ name, status: "connected" as const })),
    ...session.mcp.servers().map((s) => ({ name: s.name, status: STATES[s.state] })),
  ];
}

/** The init message, once the session's MCP servers have started (or failed). */
export async function initMessage(
  session: SessionHandle,
  setup: SessionSetup,
  mode: PermissionMode,
): Promise<SDKSystemMessage> {
  await session.mcp.settled();
  const [status, commands] = await Promise.all([sessionStatus(session), session.commands()]);
  return {
    type: "system",
    subtype: "init",
    apiKeySource: "none",
    cwd: session.projectRoot,
    tools: sessionToolNames(session),
    mcp_servers: serverStates(session, setup),
    model: status.model,
    permissionMode: mode,
    slash_commands: commands.map((c) => c.name),
    session_id: session.id,
    uuid: randomUUID(),
  };
}
