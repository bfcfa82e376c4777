import type { ToolPorts } from "@z-engine/tools";
import { type AgentStopOutcome, SessionAgents } from "./session-agents.js";

/** Which agent to stop: by its id, or by the id of the Agent call that started it. */
export type AgentStopTarget = { readonly agentId: string } | { readonly toolCallId: string };

/**
 * Stops one running subagent of a session through its agent port (the one path the
 * `stopAgent` query and command share): aborted as "stopped by the user", its Agent call
 * says so and its parent goes on. Resolves once its run ended; an agent that is not running
 * (or a session without agents) is `{ stopped: false, reason }`. Never rejects.
 */
export function stopSessionAgent(
  ports: ToolPorts,
  target: AgentStopTarget,
): Promise<AgentStopOutcome> {
  const port = ports.agents;
  if (!(port instanceof SessionAgents))
    return Promise.resolve({ stopped: false, reason: "this session has no agents" });
  return port.stop(target);
}
