/**
 * @z-engine/acp: the engine as an Agent Client Protocol agent, built with the protocol's own
 * library (`@agentclientprotocol/sdk`). Everything exported here is public API.
 */

// The agent
/** The options of an agent: the engine, what sessions open with, the models offered. */
export type { AcpAgentInfo, AcpAgentOptions } from "./options.js";
export { createAcpAgent } from "./agent.js";
/** One agent over stdio (what `zeng acp` runs). */
export type { AcpStdio } from "./stdio.js";
export { serveAcpStdio } from "./stdio.js";

// What a host may reuse
/** The engine's permission modes as ACP session modes, and a mode id (ours or Claude Code's) as one. */
export { MODES, modeOf } from "./session-config.js";
/** The key under which turns carry their badge, outcome and usage in `_meta`. */
export { META_KEY } from "./turn-end.js";
/** The auth method ids the agent offers. */
export { API_KEY_METHOD, LOGIN_METHOD } from "./initialize.js";
