/**
 * @z-engine/mcp-server: the engine behind an MCP server (the SDK's server side), so that other
 * agents delegate work to it. Everything exported here is public API.
 */

// The server
/** Its options: the engine (headless), the default folder, the data folder for transcripts. */
export type { TaskServerOptions } from "./task-server.js";
/** An `McpServer` with the `task` and `reply` tools and the session transcripts as resources. */
export { createTaskServer, toolResult } from "./task-server.js";

// Running one task without MCP (what the tools call)
export type { TaskHooks, TaskRequest, TaskResult } from "./task-run.js";
export { runTask } from "./task-run.js";
/** The stricter of two permission modes: a caller may tighten a folder's mode, never loosen it. */
export { stricterMode } from "./mode-cap.js";

// Transports
/** Streamable HTTP on 127.0.0.1 behind a bearer token, with Host and Origin checks. */
export type { McpHttpEndpoint, McpHttpOptions } from "./http.js";
export { serveMcpHttp } from "./http.js";
/** stdio: one client, the process that started this one. */
export { serveMcpStdio } from "./stdio.js";
